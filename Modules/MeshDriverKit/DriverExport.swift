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
///
/// A plugin library holds one driver; a program that links drivers in (the USB guest's
/// benchmark opens serial:// and usb:// side by side) may build descriptors for a few.
public enum DriverExport {
    /// As many drivers as one program links in: each needs its own C entry points.
    public static let capacity = 4
    /// Slot i's driver and descriptor; only touched under `lock` (a load may race an open).
    nonisolated(unsafe) private static var drivers: [(any MeshDriver.Type)?] = Array(repeating: nil, count: capacity)
    nonisolated(unsafe) private static var built: [UnsafeMutablePointer<meshport_driver_descriptor>?] = Array(repeating: nil, count: capacity)
    private static let lock = ExportLock()

    /// The driver behind slot `slot`'s entry points.
    static func driver(at slot: Int) -> (any MeshDriver.Type)? {
        pthread_mutex_lock(lock.mutex)
        defer { pthread_mutex_unlock(lock.mutex) }
        return drivers[slot]
    }

    /// The descriptor for `type`, built on first use; the same pointer on every later call.
    public static func descriptor<D: MeshDriver>(for type: D.Type) -> UnsafePointer<meshport_driver_descriptor> {
        pthread_mutex_lock(lock.mutex)
        defer { pthread_mutex_unlock(lock.mutex) }
        if let slot = drivers.firstIndex(where: { $0 == type }), let d = built[slot] { return UnsafePointer(d) }
        guard let slot = drivers.firstIndex(where: { $0 == nil }) else {
            fatalError("DriverExport: more than \(capacity) drivers linked into one program")
        }
        // Strings and the scheme table live as long as the program: allocated once, never freed.
        let schemes = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: D.schemes.count)
        for (i, s) in D.schemes.enumerated() { schemes[i] = UnsafePointer(strdup(s)) }
        let d = UnsafeMutablePointer<meshport_driver_descriptor>.allocate(capacity: 1)
        d.initialize(to: meshport_driver_descriptor(
            abi_major: UInt16(MESHPORT_DRIVER_ABI_MAJOR), abi_minor: UInt16(MESHPORT_DRIVER_ABI_MINOR),
            descriptor_size: UInt32(MemoryLayout<meshport_driver_descriptor>.size),
            name: UnsafePointer(strdup(D.name)), version: UnsafePointer(strdup(D.version)),
            schemes: UnsafePointer(schemes), scheme_count: UInt32(D.schemes.count),
            link_kind: D.linkKind, max_frame_size: UInt32(D.maxFrameSize),
            discover: slotEntries[slot].discover, open: slotEntries[slot].open, send: exportSend, close: exportClose,
            validate: slotEntries[slot].validate, flags: D.flags.reduce(0) { $0 | $1.rawValue }, set_log: exportSetLog))
        drivers[slot] = type
        built[slot] = d
        return UnsafePointer(d)
    }
}

/// Guards building descriptors (plugin loads may come from several threads).
private final class ExportLock: @unchecked Sendable {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
}

/// Discover, validate and open per slot (a C function pointer cannot say which driver it
/// belongs to); send and close go through the link itself.
private let slotEntries: [(discover: @convention(c) (meshport_found_fn?, UnsafeMutableRawPointer?, UnsafeMutablePointer<meshport_error>?) -> Int32,
                           validate: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<meshport_error>?) -> Int32,
                           open: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<meshport_callbacks>?, UnsafeMutablePointer<meshport_error>?) -> UnsafeMutableRawPointer?)] = [
    ({ exportDiscover(0, $0, $1, $2) }, { exportValidate(0, $0, $1) }, { exportOpen(0, $0, $1, $2) }),
    ({ exportDiscover(1, $0, $1, $2) }, { exportValidate(1, $0, $1) }, { exportOpen(1, $0, $1, $2) }),
    ({ exportDiscover(2, $0, $1, $2) }, { exportValidate(2, $0, $1) }, { exportOpen(2, $0, $1, $2) }),
    ({ exportDiscover(3, $0, $1, $2) }, { exportValidate(3, $0, $1) }, { exportOpen(3, $0, $1, $2) }),
]

private final class LinkBox {
    let link: MeshLink
    init(_ link: MeshLink) { self.link = link }
}

private func exportDiscover(_ slot: Int, _ found: meshport_found_fn?, _ context: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<meshport_error>?) -> Int32 {
    guard let driver = DriverExport.driver(at: slot) else { return -1 }
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

private func exportValidate(_ slot: Int, _ url: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<meshport_error>?) -> Int32 {
    guard let driver = DriverExport.driver(at: slot), let url else {
        meshport_error_set(error, MESHPORT_ERR_OTHER, "driver not initialised")
        return -1
    }
    do {
        _ = try driver.validate(url: String(cString: url))
        return 0
    } catch let failure {
        failure.write(to: error)
        return -1
    }
}

private func exportOpen(_ slot: Int, _ url: UnsafePointer<CChar>?, _ callbacks: UnsafePointer<meshport_callbacks>?, _ error: UnsafeMutablePointer<meshport_error>?) -> UnsafeMutableRawPointer? {
    guard let driver = DriverExport.driver(at: slot), let url, let callbacks else {
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
