import MeshDriverABI
import MeshDriverKit
import MeshSerial

@_cdecl("meshport_driver_entry")
public func meshportDriverEntry() -> UnsafePointer<meshport_driver_descriptor> {
    DriverExport.descriptor(for: SerialDriver.self)
}
