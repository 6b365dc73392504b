import Foundation
import MeshTransport
#if canImport(Glibc)
import Glibc
#endif

/// What `meshport doctor` reads the machine through: every system path (/dev, /sys, /proc,
/// /run, /etc) under `root`, the user's identity, the plugin search path and the clock. The
/// command uses the machine's own; a test gives a prepared tree and a made-up user.
struct DoctorEnvironment: Sendable {
    /// Prefixes every system path read; "" is the machine itself.
    var root: String
    var uid: UInt32
    /// Every group the user's processes run with (primary and supplementary).
    var groups: Set<UInt32>
    var pluginSearchPath: [(directory: String, builtIn: Bool)]
    var now: Date
    /// When this meshport was built: the clock is wrong if it says earlier.
    var buildDate: Date

    /// A system path as this environment sees it.
    func path(_ systemPath: String) -> String { root + systemPath }

    /// The machine, the user running this process and this meshport executable.
    static func current() -> DoctorEnvironment {
        var groups = Set([getgid()])
        let count = getgroups(0, nil)
        if count > 0 {
            var list = [gid_t](repeating: 0, count: Int(count))
            let n = getgroups(count, &list)
            if n > 0 { groups.formUnion(list.prefix(Int(n))) }
        }
        return DoctorEnvironment(
            root: "", uid: getuid(), groups: groups,
            pluginSearchPath: PluginLoader.searchPath(environment: ProcessInfo.processInfo.environment),
            now: Date(), buildDate: executableDate() ?? .distantPast)
    }

    /// The executable's modification time: when it was linked (a package keeps it).
    private static func executableDate() -> Date? {
        var st = stat()
        guard stat("/proc/self/exe", &st) == 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(st.st_mtim.tv_sec))
    }
}

extension DoctorEnvironment {
    /// The names in a system folder, sorted; none when it does not exist.
    func entries(_ systemPath: String) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path(systemPath)).sorted()
        } catch {
            return []   // no such folder: nothing of that kind on this machine
        }
    }

    /// A system file's text without surrounding white space (sysfs attributes end in a
    /// newline); nil when there is no such file.
    func text(_ systemPath: String) -> String? {
        FileManager.default.contents(atPath: path(systemPath)).map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    func exists(_ systemPath: String) -> Bool { FileManager.default.fileExists(atPath: path(systemPath)) }
}
