import MeshDriverABI
import MeshDriverKit
import MeshUSB

@_cdecl("meshport_driver_entry")
public func meshportDriverEntry() -> UnsafePointer<meshport_driver_descriptor> {
    DriverExport.descriptor(for: USBDriver.self)
}
