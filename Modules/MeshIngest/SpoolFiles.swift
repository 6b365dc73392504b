import Foundation
import Glibc

/// The files of a spool folder: numbered segments (`0000000000000001.spool`, ...) and `done`,
/// the position up to which every message was written to the region store
/// ("SEGMENT OFFSET", replaced atomically by a rename).
enum SpoolFiles {
    struct Position: Sendable, Equatable, Comparable {
        var segment: UInt64
        var offset: Int

        static func < (a: Position, b: Position) -> Bool { (a.segment, a.offset) < (b.segment, b.offset) }
    }

    static let suffix = ".spool"

    static func name(_ segment: UInt64) -> String {
        let digits = String(segment)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits + suffix
    }

    /// The segment numbers in `folder`, oldest first.
    static func segments(in folder: URL) throws(SpoolError) -> [UInt64] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .folder(path: folder.path, detail: "\(error.localizedDescription)")
        }
        return names.compactMap { name in
            guard name.hasSuffix(suffix), name.count == 16 + suffix.count else { return nil }
            return UInt64(name.dropLast(suffix.count))
        }.sorted()
    }

    /// Takes the folder's `lock` file for this process (released when the descriptor closes,
    /// or the process ends): two workers on one folder would replay and delete each other's
    /// segments.
    static func lockFolder(_ folder: URL) throws(SpoolError) -> Int32 {
        let path = folder.appendingPathComponent("lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .folder(path: folder.path, detail: "cannot open its lock file: \(errnoText())") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let detail = errno == EWOULDBLOCK ? "another ingest worker uses it; give each worker a --state folder of its own" : errnoText()
            close(fd)
            throw .folder(path: folder.path, detail: detail)
        }
        return fd
    }

    /// Gives the folder back. Unlocked before it is closed: a child process spawned meanwhile
    /// holds a copy of the descriptor until its exec, and would keep the lock that long.
    static func unlockFolder(_ fd: Int32) {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// The written-up-to position; nil when there is none yet, or when it cannot be read
    /// (everything is then written again: the region store ignores what it already has).
    static func readMarker(in folder: URL) -> Position? {
        let path = folder.appendingPathComponent("done").path
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, let segment = UInt64(parts[0]), let offset = Int(parts[1]), offset >= 0 else { return nil }
        return Position(segment: segment, offset: offset)
    }

    static func writeMarker(_ position: Position, in folder: URL) throws(SpoolError) {
        let temporary = folder.appendingPathComponent("done.new").path
        let final = folder.appendingPathComponent("done").path
        try writeFile(temporary, Array("\(position.segment) \(position.offset)\n".utf8))
        guard rename(temporary, final) == 0 else { throw .write(path: final, detail: errnoText()) }
    }

    static func readSegment(_ segment: UInt64, in folder: URL) throws(SpoolError) -> [UInt8] {
        let path = folder.appendingPathComponent(name(segment)).path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .read(path: path, detail: "it cannot be opened")
        }
        return Array(data)
    }

    static func remove(_ segment: UInt64, in folder: URL) throws(SpoolError) {
        let path = folder.appendingPathComponent(name(segment)).path
        guard unlink(path) == 0 || errno == ENOENT else { throw .write(path: path, detail: "cannot remove it: \(errnoText())") }
    }

    /// Opens a new segment for appending.
    static func create(_ segment: UInt64, in folder: URL) throws(SpoolError) -> Int32 {
        let path = folder.appendingPathComponent(name(segment)).path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .write(path: path, detail: errnoText()) }
        // The new name must survive a power cut too, not only the bytes written to it.
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return fd
    }

    /// Writes all of `bytes` to `fd` (a regular file writes short only when the disk is full).
    static func append(_ bytes: [UInt8], to fd: Int32, path: @autoclosure () -> String) throws(SpoolError) {
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                throw .write(path: path(), detail: errnoText())
            }
            written += result
        }
    }

    private static func writeFile(_ path: String, _ bytes: [UInt8]) throws(SpoolError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .write(path: path, detail: errnoText()) }
        defer { close(fd) }
        try append(bytes, to: fd, path: path)
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
