import Foundation
import MeshportTestSupport
@testable import MeshportCLI
#if canImport(Glibc)
import Glibc
#endif

/// A prepared machine for `meshport doctor`'s checks: a folder standing in for / (its /dev,
/// /sys, /proc, /run and /etc), and a made-up user who owns nothing in it.
final class DoctorMachine: Sendable {
    static let user: UInt32 = 4242
    let dir = TempDir()
    var root: String { dir.url.path }

    /// The environment the checks read: this tree, the made-up user in `groups`, no plugins.
    func environment(groups: Set<UInt32> = [DoctorMachine.user], now: Date = Date(), buildDate: Date = .distantPast) -> DoctorEnvironment {
        DoctorEnvironment(root: root, uid: Self.user, groups: groups, pluginSearchPath: [], now: now, buildDate: buildDate)
    }

    func folder(_ systemPath: String) throws {
        try FileManager.default.createDirectory(atPath: root + systemPath, withIntermediateDirectories: true)
    }

    /// A file (its folder made first) with `text` and `mode`.
    func file(_ systemPath: String, _ text: String = "", mode: Int = 0o644) throws {
        try folder((systemPath as NSString).deletingLastPathComponent)
        try text.write(toFile: root + systemPath, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: root + systemPath)
    }

    /// A device node stand-in with `mode`, in a group other than root's (a test run as root
    /// gives it group 20, as Debian's dialout), named `groupName` in this tree's /etc/group.
    /// Returns the group's id.
    @discardableResult
    func device(_ systemPath: String, mode: Int, groupName: String = "dialout") throws -> UInt32 {
        try file(systemPath, mode: mode)
        if getegid() == 0, chown(root + systemPath, 0, 20) != 0 { throw ProcessFailure("cannot chown \(systemPath): errno \(errno)") }
        guard let group = FileAccess(root + systemPath)?.group else { throw ProcessFailure("cannot stat \(systemPath)") }
        try file("/etc/group", "root:x:0:\n\(groupName):x:\(group):\n")
        return group
    }
}

/// The one check named `name` among `checks`.
func check(_ name: String, in checks: [DoctorCheck]) throws -> DoctorCheck {
    guard let found = checks.first(where: { $0.name == name }) else {
        throw ProcessFailure("no check \(name) among \(checks.map(\.name))")
    }
    return found
}
