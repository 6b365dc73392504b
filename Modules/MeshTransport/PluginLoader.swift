import Foundation
import Logging
import MeshDriverABI
#if canImport(Glibc)
import Glibc
#endif

private typealias Layout = MemoryLayout<meshport_driver_descriptor>

/// Finds and loads transport drivers: first the built-in directory beside the executable,
/// then each directory of `MESHPORT_PLUGIN_PATH` (colon-separated). A library is refused,
/// with the file and the reason, when it is not a shared object, lacks the entry symbol,
/// has another ABI major or a descriptor smaller than the ABI 1.0 layout, is writable by
/// group or others (file or directory), or claims a scheme an earlier driver already claimed.
public struct PluginLoader: Sendable {
    /// Built-in drivers are named `libMeshportDriver*.so`; plugin path directories may hold any `*.so`.
    public static let builtInPrefix = "libMeshportDriver"

    public private(set) var loaded: [LoadedDriver] = []
    public private(set) var refused: [RefusedDriver] = []

    public init() {}

    /// Loads from the default search path.
    public static func loadDefault(environment: [String: String] = ProcessInfo.processInfo.environment) -> PluginLoader {
        var loader = PluginLoader()
        loader.load(directories: searchPath(environment: environment))
        return loader
    }

    /// Loads from the default search path only until every scheme in `schemes` has a driver:
    /// a program that knows its radios' URLs does not map every driver there is. Within a
    /// directory the libraries named after a wanted scheme (libMeshportDriverTCP.so for tcp)
    /// are tried first; directories keep their order, so the driver that wins a scheme is the
    /// one `loadDefault` would pick. A scheme no driver claims loads them all (and the error
    /// can list every scheme there is).
    public static func load(for schemes: Set<String>, environment: [String: String] = ProcessInfo.processInfo.environment) -> PluginLoader {
        var loader = PluginLoader()
        loader.load(directories: searchPath(environment: environment), until: Set(schemes.map { $0.lowercased() }))
        return loader
    }

    /// The directories searched, in order.
    public static func searchPath(environment: [String: String]) -> [(directory: String, builtIn: Bool)] {
        var dirs: [(String, Bool)] = []
        // The running executable's own folder: argv[0] is only "meshport" when found on the PATH.
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
        dirs.append((exe, true))
        dirs.append((URL(fileURLWithPath: exe).appendingPathComponent("../lib/meshport/plugins").standardized.path, false))
        for dir in (environment["MESHPORT_PLUGIN_PATH"] ?? "").split(separator: ":") where !dir.isEmpty {
            dirs.append((String(dir), false))
        }
        return dirs
    }

    /// Loads every library of `directories`; with `wanted`, stops once each of those schemes has a driver.
    public mutating func load(directories: [(directory: String, builtIn: Bool)], until wanted: Set<String>? = nil) {
        func satisfied() -> Bool { wanted.map { $0.allSatisfy { driver(for: $0) != nil } } ?? false }
        for (dir, builtIn) in directories {
            if satisfied() { return }
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else { continue }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: dir)
            } catch {
                refuse(RefusedDriver(path: dir, reason: "cannot list plugin directory: \(error.localizedDescription)"))
                continue
            }
            let candidates = names.sorted().filter { $0.hasSuffix(".so") && (!builtIn || $0.hasPrefix(Self.builtInPrefix)) }
            let named = { (name: String) in wanted?.contains { name.lowercased().contains($0) } ?? false }
            for name in candidates.filter(named) + candidates.filter({ !named($0) }) {
                if satisfied() { return }
                load(path: (dir as NSString).appendingPathComponent(name))
            }
        }
    }

    public mutating func load(path: String) {
        switch Self.open(path) {
        case let .failure(reason):
            refuse(RefusedDriver(path: path, reason: reason))
        case let .success(driver):
            if let clash = driver.schemes.first(where: { s in loaded.contains { $0.schemes.contains(s) } }),
               let owner = loaded.first(where: { $0.schemes.contains(clash) }) {
                refuse(RefusedDriver(path: path, reason: "scheme \"\(clash)\" is already claimed by \(owner.name) (\(owner.path))"))
                return
            }
            loaded.append(driver)
        }
    }

    /// Keeps `driver` among the refused (`meshport plugins` lists them) and says so in the log,
    /// where a service's operator sees why a radio's scheme has no driver.
    private mutating func refuse(_ driver: RefusedDriver) {
        refused.append(driver)
        Self.logger.notice("The driver plugin \(driver.path) was refused: \(driver.reason)")
    }

    private static let logger = Logger(label: "meshport.plugins")

    public func driver(for scheme: String) -> LoadedDriver? {
        loaded.first { $0.schemes.contains(scheme.lowercased()) }
    }

    private enum Outcome { case success(LoadedDriver), failure(String) }

    private static func open(_ path: String) -> Outcome {
        // Refuse before dlopen runs any of the library's code.
        if let unsafe = writableByOthers(path) { return .failure(unsafe) }
        if let notShared = notASharedObject(path) { return .failure(notShared) }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return .failure("dlopen failed: \(String(cString: dlerror()))")
        }
        guard let sym = dlsym(handle, MESHPORT_DRIVER_ENTRY_SYMBOL) else {
            dlclose(handle)
            return .failure("missing entry symbol \(MESHPORT_DRIVER_ENTRY_SYMBOL)")
        }
        let entry = unsafeBitCast(sym, to: meshport_driver_entry_fn.self)
        let outcome = accept(entry(), path: path)
        if case .failure = outcome { dlclose(handle) }
        return outcome
    }

    /// A driver linked into this executable rather than loaded (a static test program that
    /// cannot dlopen Swift plugins), checked as a loaded one is. `path` names it in messages.
    public static func linked(_ descriptor: UnsafePointer<meshport_driver_descriptor>, path: String) -> Result<LoadedDriver, RefusedDriver> {
        switch accept(descriptor, path: path) {
        case let .success(driver): .success(driver)
        case let .failure(reason): .failure(RefusedDriver(path: path, reason: reason))
        }
    }

    /// The least `descriptor_size` accepted: the 1.0 layout, up to the first 1.1 field.
    static let minimumDescriptorSize = Layout.offset(of: \.validate)!

    private static func accept(_ descriptor: UnsafePointer<meshport_driver_descriptor>?, path: String) -> Outcome {
        guard let d = descriptor else { return .failure("entry symbol returned no descriptor") }
        // Only the leading fields every layout has are read before the size is known.
        let raw = UnsafeRawPointer(d)
        let major = raw.load(fromByteOffset: Layout.offset(of: \.abi_major)!, as: UInt16.self)
        let minor = raw.load(fromByteOffset: Layout.offset(of: \.abi_minor)!, as: UInt16.self)
        let size = Int(raw.load(fromByteOffset: Layout.offset(of: \.descriptor_size)!, as: UInt32.self))
        guard major == MESHPORT_DRIVER_ABI_MAJOR else {
            return .failure("driver ABI \(major).\(minor), host ABI \(MESHPORT_DRIVER_ABI_MAJOR).\(MESHPORT_DRIVER_ABI_MINOR): majors differ")
        }
        guard size >= minimumDescriptorSize else {
            return .failure("descriptor_size \(size) is smaller than the ABI 1.0 descriptor (\(minimumDescriptorSize) bytes): "
                + "the driver was not built against meshport_driver.h; rebuild it with descriptor_size = sizeof(meshport_driver_descriptor)")
        }
        let desc = covered(d, size: size)
        guard desc.open != nil, desc.send != nil, desc.close != nil, let namePtr = desc.name, desc.scheme_count > 0, let schemesPtr = desc.schemes else {
            return .failure("descriptor lacks name, schemes or open/send/close")
        }
        let kind: LinkKind
        switch desc.link_kind {
        case MESHPORT_LINK_STREAM: kind = .stream
        case MESHPORT_LINK_PACKET: kind = .packet
        default:
            return .failure("unknown link kind \(desc.link_kind.rawValue)")
        }
        let schemes = (0..<Int(desc.scheme_count)).compactMap { schemesPtr[$0].map { String(cString: $0).lowercased() } }
        let known = LinkFlags.named.reduce(LinkFlags()) { $0.union($1.0) }
        DriverLogging.connect(desc, name: String(cString: namePtr))
        return .success(LoadedDriver(path: path, name: String(cString: namePtr), version: desc.version.map { String(cString: $0) } ?? "?",
                                     schemes: schemes, linkKind: kind, maxFrameSize: Int(desc.max_frame_size), abiMinor: Int(minor),
                                     flags: LinkFlags(rawValue: desc.flags).intersection(known), descriptor: desc))
    }

    /// The descriptor's first `size` bytes over a zeroed one: nothing past the driver's own
    /// descriptor is read, and a later field it does not fully cover (an older minor) reads as
    /// NULL or 0.
    private static func covered(_ d: UnsafePointer<meshport_driver_descriptor>, size: Int) -> meshport_driver_descriptor {
        var copy = meshport_driver_descriptor()
        withUnsafeMutableBytes(of: &copy) { $0.copyMemory(from: UnsafeRawBufferPointer(start: d, count: min(size, $0.count))) }
        if size < Layout.offset(of: \.validate)! + MemoryLayout<UnsafeRawPointer>.size { copy.validate = nil }
        if size < Layout.offset(of: \.flags)! + MemoryLayout<UInt32>.size { copy.flags = 0 }
        if size < Layout.offset(of: \.set_log)! + MemoryLayout<UnsafeRawPointer>.size { copy.set_log = nil }
        return copy
    }

    private static func writableByOthers(_ path: String) -> String? {
        for (what, p) in [("file", path), ("directory", (path as NSString).deletingLastPathComponent)] {
            var st = stat()
            guard stat(p, &st) == 0 else { return "cannot stat \(what) \(p): \(String(cString: strerror(errno)))" }
            if st.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                return "\(what) \(p) is writable by group or others (mode \(String(st.st_mode & 0o777, radix: 8))); run: chmod go-w \(p)"
            }
        }
        return nil
    }

    /// nil when `path` starts with an ELF header of a shared object, else why not.
    private static func notASharedObject(_ path: String) -> String? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "cannot open: \(String(cString: strerror(errno)))" }
        defer { Glibc.close(fd) }
        var head = [UInt8](repeating: 0, count: 18)
        let n = read(fd, &head, head.count)
        // ELF magic, then e_type at offset 16 (little endian): 3 = ET_DYN.
        guard n == head.count, head[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else { return "not a shared object (no ELF header)" }
        guard head[16] == 3, head[17] == 0 else { return "not a shared object (ELF type \(head[16]))" }
        return nil
    }
}
