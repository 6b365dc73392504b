// Runs the conformance suite over usb:// inside the QEMU guest (Tools/USB/run-in-vm.sh) and
// prints the report as one JSON line on stdout; the table goes to stderr.
//
//   MeshportUSBGuest URL [--missing URL] [--contacts N]
//
// The driver is linked in and reached through its C descriptor, exactly as a loaded plugin
// is: a program built with --static-swift-stdlib cannot dlopen a Swift plugin (the plugin
// would bring a second runtime). The far side is `meshport sim` on the host; when it drops
// the link (the link-loss check), the device leaves the guest's bus until it reconnects.
import Foundation
import MeshConformance
import MeshDriverKit
import MeshSim
import MeshTransport
import MeshUSB

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
guard let url = arguments.first, url.hasPrefix("usb://") else {
    FileHandle.standardError.write(Data("usage: MeshportUSBGuest usb://VID:PID [--missing URL] [--contacts N]\n".utf8))
    exit(2)
}

let driver: LoadedDriver
switch PluginLoader.linked(DriverExport.descriptor(for: USBDriver.self), path: "MeshUSB (linked)") {
case let .success(d): driver = d
case let .failure(refused):
    FileHandle.standardError.write(Data("driver refused: \(refused.reason)\n".utf8))
    exit(1)
}

let missing = option("--missing") ?? "usb://dead:beef"
var suite = ConformanceSuite(driverName: driver.name, url: url, linkKind: driver.linkKind, maxFrameSize: driver.maxFrameSize,
                             makeTransport: { [driver, url] in PluginTransport(url: try TransportURL(url), driver: driver) },
                             missingDevice: { [driver, missing] in PluginTransport(url: try TransportURL(missing), driver: driver) })
// The far side is `meshport sim` with its default mesh unless told otherwise.
suite.expectedContacts = option("--contacts").flatMap(Int.init) ?? DefaultMesh.nodeCount

let report = await suite.run()
FileHandle.standardError.write(Data((report.table() + "\n").utf8))
print(try report.json())
exit(report.ok ? 0 : 1)
