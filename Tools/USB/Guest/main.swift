// Runs inside the QEMU guest (Tools/USB/run-in-vm.sh), against `meshport sim` on the host:
//
//   MeshportUSBGuest usb://VID:PID [--missing URL] [--contacts N]
//       discovery, the conformance suite on the URL discovery gave, then an open without
//       access to the device node; the report as one JSON line on stdout, the table on stderr
//   MeshportUSBGuest bench URL [URL] [--round-trips N] [--frames N]
//       round trips and windowed throughput on usb:// or serial:// (the kernel's tty driver);
//       with two URLs (two identical devices), both measured interleaved; one JSON line each
//
// The drivers are linked in and reached through their C descriptors, exactly as a loaded
// plugin is: a program built with --static-swift-stdlib cannot dlopen a Swift plugin (the
// plugin would bring a second runtime).
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

let urls = Array(arguments.prefix { !$0.hasPrefix("--") })
guard let url = urls.first, urls.count <= (benchmark ? 2 : 1),
      urls.allSatisfy({ $0.hasPrefix("usb://") || (benchmark && $0.hasPrefix("serial://")) }) else {
    fail("usage: MeshportUSBGuest usb://VID:PID [--missing URL] [--contacts N] | bench URL [URL] [--round-trips N] [--frames N] (URL: usb://... or serial://...)", status: 2)
}

/// The linked driver for a URL's scheme, checked as a loaded plugin is.
func linkedDriver(_ url: String) -> LoadedDriver {
    let descriptor = url.hasPrefix("usb://") ? DriverExport.descriptor(for: USBDriver.self) : DriverExport.descriptor(for: SerialDriver.self)
    switch PluginLoader.linked(descriptor, path: "\(url.prefix { $0 != ":" }) driver (linked)") {
    case let .success(d): return d
    case let .failure(refused): fail("driver refused: \(refused.reason)", status: 1)
    }
}

do {
    if benchmark {
        let lines = try await bench(urls: urls, drivers: urls.map(linkedDriver), roundTrips: option("--round-trips").flatMap(Int.init),
                                    frames: option("--frames").flatMap(Int.init))
        for line in lines { print(line) }
    } else {
        let driver = linkedDriver(url)
        // The URL discovery gives (naming the device by serial number) is the one the suite uses.
        let id = String(url.dropFirst("usb://".count).prefix(9))
        let (found, discovery) = DeviceChecks.discover(id, driver: driver)
        var report = await conformance(url: found ?? url, driver: driver, missing: option("--missing") ?? "usb://dead:beef",
                                       contacts: option("--contacts").flatMap(Int.init))
        report.add(discovery, at: 0)
        report.add(await DeviceChecks.largeWrite(found ?? url))
        report.add(await DeviceChecks.withoutAccess(found ?? url, driver: driver))
        FileHandle.standardError.write(Data((report.table() + "\n").utf8))
        print(try report.json())
        exit(report.ok ? 0 : 1)
    }
} catch {
    fail("\(error)", status: 1)
}
