import MeshDriverABI
#if canImport(Glibc)
import Glibc
#endif

/// Builds the C descriptor for a Swift driver. A plugin exports it with one function:
///
///     @_cdecl("meshport_driver_entry")
///     public func meshportDriverEntry() -> UnsafePointer<meshport_driver_descriptor> {
///         DriverExport.descriptor(for: TCPDriver.self)
///     }
public enum DriverExport {
    /// One driver per plugin library: the C entry points below dispatch to it.
    nonisolated(unsafe) static var driver: (any MeshDriver.Type)?
    nonisolated(unsafe) static var built: UnsafeMutablePointer<meshport_driver_descriptor>?

    public static func descriptor<D: MeshDriver>(for type: D.Type) -> UnsafePointer<meshport_driver_descriptor> {
        if let built { return UnsafePointer(built) }
        driver = type
        // Strings and the scheme table live as long as the library: allocated once, never freed.
        let schemes = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: D.schemes.count)
        for (i, s) in D.schemes.enumerated() { schemes[i] = UnsafePointer(strdup(s)) }
        let d = UnsafeMutablePointer<meshport_driver_descriptor>.allocate(capacity: 1)
        d.initialize(to: meshport_driver_descriptor(
            abi_major: UInt16(MESHPORT_DRIVER_ABI_MAJOR), abi_minor: UInt16(MESHPORT_DRIVER_ABI_MINOR),
            descriptor_size: UInt32(MemoryLayout<meshport_driver_descriptor>.size),
            name: UnsafePointer(strdup(D.name)), version: UnsafePointer(strdup(D.version)),
            schemes: UnsafePointer(schemes), scheme_count: UInt32(D.schemes.count),
            link_kind: D.linkKind, max_frame_size: UInt32(D.maxFrameSize),
            discover: exportDiscover, open: exportOpen, send: exportSend, close: exportClose))
        built = d
        return UnsafePointer(d)
    }
}

private final class LinkBox {
    let link: MeshLink
    init(_ link: MeshLink) { self.link = link }
}

private func exportDiscover(_ found: meshport_found_fn?, _ context: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<meshport_error>?) -> Int32 {
    guard let driver = DriverExport.driver else { return -1 }
    do {
        for radio in try driver.discover() {
            radio.url.withCString { u in radio.label.withCString { l in radio.details.withCString { d in found?(context, u, l, d) } } }
        }
        return 0
    } catch let failure {
        failure.write(to: error)
        return -1
    }
}

private func exportOpen(_ url: UnsafePointer<CChar>?, _ callbacks: UnsafePointer<meshport_callbacks>?, _ error: UnsafeMutablePointer<meshport_error>?) -> UnsafeMutableRawPointer? {
    guard let driver = DriverExport.driver, let url, let callbacks else {
        meshport_error_set(error, MESHPORT_ERR_OTHER, "driver not initialised")
        return nil
    }
    do {
        let link = try driver.open(url: String(cString: url), events: LinkEvents(callbacks: callbacks.pointee))
        return Unmanaged.passRetained(LinkBox(link)).toOpaque()
    } catch let failure {
        failure.write(to: error)
        return nil
    }
}

private func exportSend(_ handle: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ length: Int, _ error: UnsafeMutablePointer<meshport_error>?) -> Int32 {
    guard let handle else { return -1 }
    let box = Unmanaged<LinkBox>.fromOpaque(handle).takeUnretainedValue()
    do {
        try box.link.send(UnsafeBufferPointer(start: bytes, count: length))
        return 0
    } catch let failure {
        failure.write(to: error)
        return -1
    }
}

private func exportClose(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    let box = Unmanaged<LinkBox>.fromOpaque(handle)
    box.takeUnretainedValue().link.close()
    box.release()
}
