import Foundation
import MeshCodec

/// Remote-node passwords a person asked to remember, in one file only its owner can read
/// (mode 0600): a JSON object from hex public key to password.
///
/// Writes replace the file atomically with a new one created 0600. A file others can read
/// is refused (the passwords in it may have leaked) until `repairPermissions()` is called.
public struct PasswordVault: Sendable {
    public static let mode: mode_t = 0o600
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func password(for node: PublicKey) throws(PasswordVaultError) -> String? {
        try load()[node.hex]
    }

    public func remember(_ password: String, for node: PublicKey) throws(PasswordVaultError) {
        var all = try load()
        all[node.hex] = password
        try save(all)
    }

    public func forget(_ node: PublicKey) throws(PasswordVaultError) {
        var all = try load()
        guard all.removeValue(forKey: node.hex) != nil else { return }
        try save(all)
    }

    /// The file's permission bits, nil when there is no file yet.
    public func permissions() throws(PasswordVaultError) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .io(path: path, operation: "stat", reason: lastError())
        }
        return info.st_mode & 0o7777
    }

    /// Takes group and other access away again (chmod 600).
    public func repairPermissions() throws(PasswordVaultError) {
        guard try permissions() != nil else { return }
        guard chmod(path, Self.mode) == 0 else { throw .io(path: path, operation: "chmod 600", reason: lastError()) }
    }

    private func load() throws(PasswordVaultError) -> [String: String] {
        guard let mode = try permissions() else { return [:] }
        guard mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: mode) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .io(path: path, operation: "read", reason: "\(error)")
        }
        do {
            return try JSONDecoder().decode([String: String].self, from: data)
        } catch {
            throw .corrupt(path: path, reason: "\(error)")
        }
    }

    private func save(_ all: [String: String]) throws(PasswordVaultError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(all)
        } catch {
            throw .io(path: path, operation: "encode", reason: "\(error)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .io(path: directory, operation: "create directory", reason: "\(error)")
            }
        }
        // Created 0600 from the start: no moment where another user could open it.
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, Self.mode)
        guard fd >= 0 else { throw .io(path: temporary, operation: "create", reason: lastError()) }
        var failure: PasswordVaultError?
        if fchmod(fd, Self.mode) != 0 { failure = .io(path: temporary, operation: "chmod 600", reason: lastError()) }
        if failure == nil {
            let written = data.withUnsafeBytes { buffer in write(fd, buffer.baseAddress, buffer.count) }
            if written != data.count { failure = .io(path: temporary, operation: "write", reason: lastError()) }
        }
        if failure == nil, fsync(fd) != 0 { failure = .io(path: temporary, operation: "fsync", reason: lastError()) }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = .io(path: path, operation: "replace", reason: lastError()) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    private func lastError() -> String { String(cString: strerror(errno)) }
}

public enum PasswordVaultError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Group or others may read the file.
    case tooOpen(path: String, mode: mode_t)
    case io(path: String, operation: String, reason: String)
    case corrupt(path: String, reason: String)

    public var description: String {
        switch self {
        case let .tooOpen(path, mode):
            "the password file \(path) is open to other users (mode \(String(mode, radix: 8))): run chmod 600 \(path), and change the passwords if others could read it"
        case let .io(path, operation, reason):
            "password file \(path): \(operation) failed: \(reason)"
        case let .corrupt(path, reason):
            "the password file \(path) is not a JSON object of key to password (\(reason)); fix or remove it"
        }
    }
}
