import Foundation
import MeshStore
#if canImport(Glibc)
import Glibc
#endif

/// The history database: its integrity and schema against this build, whether the user may
/// write it, and the free space beside it.
enum DatabaseChecks {
    /// Less free space than this beside the database is a problem.
    static let minimumFreeBytes: UInt64 = 100 << 20

    static func run(_ env: DoctorEnvironment, path: String) -> [DoctorCheck] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard let file = FileAccess(path) else {
            return [creatable(env, path: path, folder: folder), space(folder: existingAncestor(folder))]
        }
        return [content(path: path), writable(env, file: file, folder: folder), space(folder: folder)]
    }

    /// Integrity, foreign keys and migrations, read without changing the file.
    static func content(path: String) -> DoctorCheck {
        let name = "database"
        let store: MeshStore
        do {
            store = try StoreFile.open(path, readOnly: true)
        } catch let error as StoreError {
            switch error {
            case .schemaOutdated:
                return .problem(name, "\(error)", fix: "cp \(path) \(path).bak while nothing writes to it, then meshport db check --db \(path) (a read-write open applies the migrations)")
            case .schemaTooNew:
                return .problem(name, "\(error)", fix: "upgrade meshport to the release that wrote it, or choose another file with --db")
            default:
                return .problem(name, "\(error)", fix: "restore a backup of \(path), or move it away so a new one is made")
            }
        } catch {
            return .problem(name, "cannot open \(path): \(error)", fix: "meshport db check --db \(path) says more")
        }
        let report: IntegrityReport
        do {
            report = try store.integrityCheck()
        } catch {
            return .problem(name, "\(error)", fix: "meshport db check --db \(path) says more")
        }
        guard report.isOK else {
            let problems = report.integrity.filter { $0 != "ok" } + report.foreignKeyViolations
            return .problem(name, "\(path) is damaged: \(problems.prefix(3).joined(separator: "; "))",
                            fix: "restore a backup of \(path) (meshport db backup makes them), or move it away so a new one is made")
        }
        let megabytes = Double(report.pageCount * report.pageSize) / 1_048_576
        return .ok(name, "\(path): intact, schema current (\(report.appliedMigrations.count) migrations), \(String(format: "%.1f", megabytes)) MB")
    }

    private static func writable(_ env: DoctorEnvironment, file: FileAccess, folder: String) -> DoctorCheck {
        let name = "database access"
        guard file.mayWrite(env) else {
            return .problem(name, "you may not write \(file.path) (\(file.describe(env)))", fix: "sudo chown $USER \(file.path) (or chmod u+w \(file.path) if you own it)")
        }
        // The write-ahead log and its index are made beside the file.
        guard let dir = FileAccess(folder), dir.mayWrite(env) else {
            return .problem(name, "you may not write in \(folder), where the database keeps its -wal and -shm files", fix: "sudo chown $USER \(folder)")
        }
        return .ok(name, "you may write \(file.path) and its folder")
    }

    /// A missing database is made by the first command that needs it, if the user may.
    private static func creatable(_ env: DoctorEnvironment, path: String, folder: String) -> DoctorCheck {
        let name = "database"
        let ancestor = existingAncestor(folder)
        guard let dir = FileAccess(ancestor), dir.mayWrite(env) else {
            return .problem(name, "\(path) does not exist and you may not create it in \(ancestor)",
                            fix: "sudo install -d -o $USER \(folder), or choose another file with --db")
        }
        return .ok(name, "\(path) does not exist yet; the first command that needs it makes it")
    }

    private static func space(folder: String) -> DoctorCheck {
        let name = "disk space"
        var fs = statvfs()
        guard statvfs(folder, &fs) == 0 else {
            return .problem(name, "cannot read the free space of \(folder): \(String(cString: strerror(errno)))", fix: "check that \(folder) is mounted")
        }
        let free = UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
        let text = "\(free >> 20) MB free in \(folder)"
        guard free >= minimumFreeBytes else {
            return .problem(name, text + ", less than \(minimumFreeBytes >> 20) MB", fix: "free space on the file system of \(folder), or move the database with --db")
        }
        return .ok(name, text)
    }

    /// The nearest folder up from `folder` that exists.
    private static func existingAncestor(_ folder: String) -> String {
        var url = URL(fileURLWithPath: folder)
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" { url.deleteLastPathComponent() }
        return url.path
    }
}
