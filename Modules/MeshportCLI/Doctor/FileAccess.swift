import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who may use a file, from its mode and owners as `stat` reports them, judged for the
/// environment's user the way the kernel does (owner bits, else group bits, else the rest;
/// uid 0 may do all). Doctor judges by mode rather than asking `access()` so a test can
/// check a made-up user against a prepared tree.
struct FileAccess: Sendable {
    let path: String
    let mode: UInt32
    let owner: UInt32
    let group: UInt32

    /// nil when the file does not exist (or cannot be looked at).
    init?(_ path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        self.path = path
        mode = UInt32(st.st_mode)
        owner = st.st_uid
        group = st.st_gid
    }

    var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }

    func mayRead(_ env: DoctorEnvironment) -> Bool { allows(4, env) }
    func mayWrite(_ env: DoctorEnvironment) -> Bool { allows(2, env) }
    func mayReadWrite(_ env: DoctorEnvironment) -> Bool { allows(6, env) }

    /// Joining the file's group, when its group may read and write it and is not root's.
    func joinGroup(_ env: DoctorEnvironment) -> String? {
        guard (mode >> 3) & 6 == 6, group != 0 else { return nil }
        return "sudo usermod -aG \(env.groupName(group)) $USER, then log out and in again"
    }

    /// "mode 0660, owner root, group dialout"
    func describe(_ env: DoctorEnvironment) -> String {
        "mode 0\(String(mode & 0o7777, radix: 8)), owner \(env.userName(owner)), group \(env.groupName(group))"
    }

    private func allows(_ bits: UInt32, _ env: DoctorEnvironment) -> Bool {
        if env.uid == 0 { return true }
        let granted = env.uid == owner ? mode >> 6 : env.groups.contains(group) ? mode >> 3 : mode
        return granted & bits == bits
    }
}

extension DoctorEnvironment {
    /// The group's name from the environment's /etc/group, else its number.
    func groupName(_ gid: UInt32) -> String { names(in: "/etc/group")[gid] ?? "\(gid)" }

    func userName(_ uid: UInt32) -> String { names(in: "/etc/passwd")[uid] ?? "\(uid)" }

    /// name:x:id:... lines: id -> name.
    private func names(in file: String) -> [UInt32: String] {
        let text: String
        do {
            text = try String(contentsOfFile: path(file), encoding: .utf8)
        } catch {
            return [:]   // the numbers stand in for the names
        }
        var out: [UInt32: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count > 2, let id = UInt32(fields[2]), out[id] == nil { out[id] = String(fields[0]) }
        }
        return out
    }
}
