// Runs inside the QEMU guest (Tools/USB/run-in-vm.sh), against `meshport sim` on the host:
//
//   MeshportGuest usb://VID:PID [--missing URL] [--contacts N]
//       discovery, the conformance suite on the URL discovery gave, one large write, then an
//       open without access to the device node
//   MeshportGuest 'ble://ADDRESS?pin=PIN&hci=hci0' [--missing URL] [--contacts N]
//       (run-in-vm.sh -b: the guest kernel's adapter hci0, its controller and the radio
//       emulated on the host by Tools/BLE/world.py) the open refused while the kernel has the
//       adapter up, discovery (as `meshport scan --scheme ble`), the conformance suite over the
//       HCI user channel, the open refused while another program holds the adapter, then
//       without CAP_NET_ADMIN
//       Either way: the report as one JSON line on stdout, the table on stderr
//   MeshportGuest without-access URL FIX
//       the last check of either, as a child process: drops to uid 65534, opens URL, prints
//       the check as JSON (DeviceChecks.withoutAccess)
//   MeshportGuest bench URL [URL] [--round-trips N] [--frames N]
//       round trips and windowed throughput on usb:// or serial:// (the kernel's tty driver);
//       with two URLs (two identical devices), both measured interleaved; one JSON line each
//
// The drivers are linked in and reached through their C descriptors, exactly as a loaded
// plugin is: a program built with --static-swift-stdlib cannot dlopen a Swift plugin (the
// plugin would bring a second runtime).
import Foundation
import MeshConformance
import MeshDriverKit
import MeshportDriverBLE
import MeshSerial
import MeshTransport
import MeshUSB

// First, while this is the process's only thread: the async main runs on the main thread until
// its first `await`.
if CommandLine.arguments.count == 4 && CommandLine.arguments[1] == "without-access" {
    let dropped = DeviceChecks.dropRoot()
    let (url, fix) = (CommandLine.arguments[2], CommandLine.arguments[3])
    let check = await DeviceChecks.unprivilegedOpen(url, driver: linkedDriver(url), fix: fix, dropped: dropped)
    do {
        print(String(decoding: try JSONEncoder().encode(check), as: UTF8.self))
    } catch {
        fail("\(error)", status: 1)
    }
    exit(0)
}

let benchmark = CommandLine.arguments.dropFirst().first == "bench"
let arguments = Array(CommandLine.arguments.dropFirst(benchmark ? 2 : 1))

@MainActor func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("MeshportGuest: \(message)\n".utf8))
    exit(status)
}

struct GuestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let urls = Array(arguments.prefix { !$0.hasPrefix("--") })
let schemes = benchmark ? ["usb", "serial"] : ["usb", "ble"]
guard let url = urls.first, urls.count <= (benchmark ? 2 : 1), urls.allSatisfy({ u in schemes.contains { u.hasPrefix("\($0)://") } }),
      !url.hasPrefix("ble://") || AdapterChecks.adapter(of: url) != nil else {
    fail("usage: MeshportGuest usb://VID:PID|'ble://ADDRESS?pin=PIN&hci=hci0' [--missing URL] [--contacts N] | bench URL [URL] [--round-trips N] [--frames N] (URL: usb://... or serial://...)", status: 2)
}

/// The linked driver for a URL's scheme, checked as a loaded plugin is.
func linkedDriver(_ url: String) -> LoadedDriver {
    let scheme = String(url.prefix { $0 != ":" })
    let descriptor = switch scheme {
    case "usb": DriverExport.descriptor(for: USBDriver.self)
    case "ble": MeshportDriverBLE.meshportDriverEntry()
    default: DriverExport.descriptor(for: SerialDriver.self)
    }
    switch PluginLoader.linked(descriptor, path: "\(scheme) driver (linked)") {
    case let .success(d): return d
    case let .failure(refused): fail("driver refused: \(refused.reason)", status: 1)
    }
}

/// usb://: the URL discovery gives (naming the device by serial number) is the one the suite uses.
@MainActor func checkUSB(_ url: String, driver: LoadedDriver) async -> ConformanceReport {
    let id = String(url.dropFirst("usb://".count).prefix(9))
    let (found, discovery) = DeviceChecks.discover("usb://\(id)", driver: driver)
    var report = await conformance(url: found ?? url, driver: driver, missing: option("--missing") ?? "usb://dead:beef",
                                   contacts: option("--contacts").flatMap(Int.init))
    report.add(discovery, at: 0)
    report.add(await DeviceChecks.largeWrite(found ?? url))
    report.add(await DeviceChecks.withoutAccess(found ?? url, fix: "udev"))
    return report
}

/// ble:// on a kernel adapter: discovery finds the radio by its address (a scan names no PIN
/// and no controller, so the suite runs on the URL given). The busy check leaves the adapter
/// down, as its fix says, so it goes first.
@MainActor func checkBLE(_ url: String, driver: LoadedDriver) async -> ConformanceReport {
    let adapter = AdapterChecks.adapter(of: url) ?? 0
    let busy = await AdapterChecks.busyWhileKernelHasItUp(url, adapter: adapter, driver: driver)
    // `meshport scan` scans on the configured controller: here the URL's.
    setenv("MESHPORT_BLE_HCI", "hci\(adapter)", 1)
    let address = String(url.prefix { $0 != "?" })
    let (_, discovery) = DeviceChecks.discover(address, driver: driver)
    var report = await conformance(url: url, driver: driver, missing: option("--missing") ?? "ble://F0:00:00:00:00:77?pin=123456&hci=hci\(adapter)&timeout=1",
                                   contacts: option("--contacts").flatMap(Int.init))
    report.add(busy, at: 0)
    report.add(discovery, at: 1)
    report.add(await AdapterChecks.takenByAnotherProgram(url, adapter: adapter, driver: driver))
    report.add(await DeviceChecks.withoutAccess(url, fix: "setcap cap_net_admin"))
    return report
}

do {
    if benchmark {
        let lines = try await bench(urls: urls, drivers: urls.map(linkedDriver), roundTrips: option("--round-trips").flatMap(Int.init),
                                    frames: option("--frames").flatMap(Int.init))
        for line in lines { print(line) }
    } else {
        let driver = linkedDriver(url)
        let report = url.hasPrefix("ble://") ? await checkBLE(url, driver: driver) : await checkUSB(url, driver: driver)
        FileHandle.standardError.write(Data((report.table() + "\n").utf8))
        print(try report.json())
        exit(report.ok ? 0 : 1)
    }
} catch {
    fail("\(error)", status: 1)
}
