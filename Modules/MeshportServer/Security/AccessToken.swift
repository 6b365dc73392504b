import Foundation

/// The bearer token a client must show when the server is reachable from other machines:
/// read from its file, or made (32 random bytes, hex) and written there with mode 0600.
public struct AccessToken: Sendable {
    public let value: String
    public let path: String
    /// True when this start wrote the file.
    public let created: Bool

    public static func loadOrCreate(at path: String) throws(ServeError) -> AccessToken {
        let fm = FileManager.default
        if fm.fileExists(atPath: path) {
            let attributes: [FileAttributeKey: Any]
            let data: Data
            do {
                attributes = try fm.attributesOfItem(atPath: path)
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw .tokenFile(path, reason: "cannot read it: \(error.localizedDescription)")
            }
            // A token others can read is no secret: refuse rather than serve with it.
            if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
                throw .tokenFile(path, reason: "mode \(String(mode, radix: 8)) lets others read it; `chmod 600 \(path)`")
            }
            let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw .tokenFile(path, reason: "holds no token (at least 16 printable characters)")
            }
            return AccessToken(value: token, path: path, created: false)
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        let token = bytes.map { String(format: "%02x", $0) }.joined()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .tokenFile(path, reason: "cannot create \(folder): \(error.localizedDescription)")
        }
        // Created with 0600 from the start: never readable by others, not even for a moment.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw .tokenFile(path, reason: "cannot create it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let line = Array((token + "\n").utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else { throw .tokenFile(path, reason: "cannot write it: \(String(cString: strerror(errno)))") }
        return AccessToken(value: token, path: path, created: true)
    }

    init(value: String, path: String, created: Bool) {
        self.value = value
        self.path = path
        self.created = created
    }

    /// Compares in time independent of where the strings differ.
    func matches(_ candidate: Substring) -> Bool {
        let a = Array(value.utf8), b = Array(candidate.utf8)
        var diff = a.count ^ b.count
        for i in 0..<max(a.count, b.count) { diff |= Int(a[i % max(a.count, 1)] ^ (i < b.count ? b[i] : 0)) }
        return diff == 0
    }
}
