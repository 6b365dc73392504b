// Runs inside the QEMU guest (Tools/USB/run-in-vm.sh), against `meshport sim` on the host:
//
//   MeshportUSBGuest usb://VID:PID [--missing URL] [--contacts N]
//       discovery, the conformance suite on the URL discovery gave, then an open without
//       access to the device node; the report as one JSON line on stdout, the table on stderr
//   MeshportUSBGuest bench URL [--round-trips N] [--frames N]
//       round trips and windowed throughput on usb:// or serial:// (the kernel's tty driver
//       for the same device), one JSON line
//
// The driver is linked in and reached through its C descriptor, exactly as a loaded plugin
// is: a program built with --static-swift-stdlib cannot dlopen a Swift plugin (the plugin
// would bring a second runtime). One driver per process, as in a plugin library.
import Foundation
import MeshDriverKit
import MeshSerial
import MeshTransport
import MeshUSB

let benchmark = CommandLine.arguments.dropFirst().first == "bench"
let arguments = Array(CommandLine.arguments.dropFirst(benchmark ? 2 : 1))

@MainActor func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("MeshportUSBGuest: \(message)\n".utf8))
    exit(status)
}

guard let url = arguments.first, url.hasPrefix("usb://") || (benchmark && url.hasPrefix("serial://")) else {
    fail("usage: MeshportUSBGuest usb://VID:PID [--missing URL] [--contacts N] | bench usb://...|serial://... [--round-trips N] [--frames N]", status: 2)
}
let descriptor = url.hasPrefix("usb://") ? DriverExport.descriptor(for: USBDriver.self) : DriverExport.descriptor(for: SerialDriver.self)
let driver: LoadedDriver
switch PluginLoader.linked(descriptor, path: "\(url.prefix { $0 != ":" }) driver (linked)") {
case let .success(d): driver = d
case let .failure(refused): fail("driver refused: \(refused.reason)", status: 1)
}

do {
    if benchmark {
        print(try await bench(url: url, driver: driver, roundTrips: option("--round-trips").flatMap(Int.init), frames: option("--frames").flatMap(Int.init)))
    } else {
        // The URL discovery gives (naming the device by serial number) is the one the suite uses.
        let id = String(url.dropFirst("usb://".count).prefix(9))
        let (found, discovery) = DeviceChecks.discover(id, driver: driver)
        var report = await conformance(url: found ?? url, driver: driver, missing: option("--missing") ?? "usb://dead:beef",
                                       contacts: option("--contacts").flatMap(Int.init))
        report.add(discovery, at: 0)
        report.add(await DeviceChecks.withoutAccess(found ?? url, driver: driver))
        FileHandle.standardError.write(Data((report.table() + "\n").utf8))
        print(try report.json())
        exit(report.ok ? 0 : 1)
    }
} catch {
    fail("\(error)", status: 1)
}
