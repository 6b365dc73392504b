import Foundation

/// Files holding keys or PINs: written whole (temp file + rename), mode 0600 from the moment
/// they exist, in a folder of mode 0700.
enum PrivateFile {
    /// Writes `data` to `path`; the error's text says what failed.
    static func write(_ data: Data, to path: String) throws(PrivateFileError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw PrivateFileError(reason: "cannot create \(folder.path): \(error.localizedDescription)")
        }
        let temp = folder.appendingPathComponent(".\(URL(fileURLWithPath: path).lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        guard FileManager.default.createFile(atPath: temp.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw PrivateFileError(reason: "cannot create \(temp.path)")
        }
        guard rename(temp.path, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp.path)
            throw PrivateFileError(reason: "cannot replace it: \(reason)")
        }
    }
}

struct PrivateFileError: Error {
    let reason: String
}
