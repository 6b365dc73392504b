import Foundation
import Glibc

/// The QoS 1 messages of a backlog folder on disk: an append-only log in segment files
/// (`SEQUENCE.seg`, named after the first message written to it) and `cursor`, the oldest
/// sequence not yet acknowledged. Appending a message is one `write`; an acknowledgement moves
/// the cursor (one 12-byte `pwrite`), and a segment whose messages are all behind it is
/// deleted. One file per message cost a file creation, a rename and a removal each.
///
/// A record is u32 body length, u32 CRC-32 of the body, then the body: u64 sequence and the
/// message (`Backlog.encode`). The cursor file is u64 cursor and u32 CRC-32 of it. All
/// little-endian. On open, a record cut short by a crash, or whose checksum does not match,
/// ends what is read of its segment, and the segment is cut back to its last whole record; a
/// cursor that cannot be read counts as 0 (everything on disk is sent again: at least once).
final class BacklogSegments {
    private struct Segment {
        let first: UInt64
        var last: UInt64
        let path: String
    }

    static let segmentSuffix = ".seg"
    static let headerSize = 8

    let directory: String
    /// What earlier processes left unacknowledged, oldest first: read on open, handed out once.
    private var recovered: [(sequence: UInt64, message: ArraySlice<UInt8>)] = []
    /// Segments that ended in a torn or damaged record (found on open).
    private(set) var tornSegments = 0
    /// The cursor as the file holds it.
    private(set) var cursor: UInt64 = 0
    /// The newest sequence written, nil before the first.
    private(set) var newest: UInt64?
    private let segmentBytes: Int
    private var segments: [Segment] = []
    /// The last segment, open for appending (-1: none open; the next append starts one).
    private var appendFD: Int32 = -1
    private var appendSize = 0
    private let cursorFD: Int32

    /// Opens the log in `directory` (made when missing) and reads what it holds.
    init(directory: String, segmentBytes: Int = 1 << 20) throws(MQTTError) {
        self.directory = directory
        self.segmentBytes = max(1, segmentBytes)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .persistence(folder: directory, detail: error.localizedDescription)
        }
        cursorFD = open(directory + "/cursor", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard cursorFD >= 0 else { throw .persistence(folder: directory, detail: "opening its cursor file: \(Self.systemError())") }
        cursor = readCursor()
        try readSegments()
    }

    deinit {
        if appendFD >= 0 { close(appendFD) }
        close(cursorFD)
    }

    /// The messages earlier processes left unacknowledged, oldest first; empty after the first call.
    func takeRecovered() -> [(sequence: UInt64, message: ArraySlice<UInt8>)] {
        defer { recovered = [] }
        return recovered
    }

    /// Appends the message numbered `sequence` (higher than any before), whole or not at all.
    func append(_ sequence: UInt64, _ message: [UInt8]) throws(MQTTError) {
        if appendFD < 0 || appendSize >= segmentBytes { try startSegment(sequence) }
        var body: [UInt8] = []
        body.reserveCapacity(8 + message.count)
        Self.appendLittleEndian(sequence, bytes: 8, to: &body)
        body += message
        var record: [UInt8] = []
        record.reserveCapacity(Self.headerSize + body.count)
        Self.appendLittleEndian(UInt64(body.count), bytes: 4, to: &record)
        Self.appendLittleEndian(UInt64(CRC32.checksum(body)), bytes: 4, to: &record)
        record += body
        if let failure = Self.writeAll(record, to: appendFD) {
            // A part written before the failure would end the segment on the next open.
            ftruncate(appendFD, off_t(appendSize))
            throw .persistence(folder: directory, detail: "writing message \(sequence): \(failure)")
        }
        appendSize += record.count
        segments[segments.count - 1].last = sequence
        newest = sequence
    }

    /// Everything before `sequence` is acknowledged (or dropped): the cursor moves there and
    /// the segments wholly behind it are deleted. Writes nothing while no message on disk is
    /// at or after the cursor (a QoS 0 stream moves it too).
    func advance(to sequence: UInt64) throws(MQTTError) {
        guard sequence > cursor, let newest, cursor <= newest else { return }
        var bytes: [UInt8] = []
        Self.appendLittleEndian(sequence, bytes: 8, to: &bytes)
        Self.appendLittleEndian(UInt64(CRC32.checksum(bytes)), bytes: 4, to: &bytes)
        let written = bytes.withUnsafeBytes { pwrite(cursorFD, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else {
            throw .persistence(folder: directory, detail: "writing its cursor: \(written < 0 ? Self.systemError() : "short write")")
        }
        cursor = sequence
        while let oldest = segments.first, oldest.last < sequence {
            if segments.count == 1, appendFD >= 0 {
                close(appendFD)
                appendFD = -1
            }
            guard unlink(oldest.path) == 0 || errno == ENOENT else {
                throw .persistence(folder: directory, detail: "removing \(oldest.path): \(Self.systemError())")
            }
            segments.removeFirst()
        }
    }

    /// The segment files in the folder, oldest first.
    var segmentFiles: [String] { segments.map(\.path) }

    // MARK: - Opening

    private func readCursor() -> UInt64 {
        var bytes = [UInt8](repeating: 0, count: 12)
        let count = bytes.withUnsafeMutableBytes { pread(cursorFD, $0.baseAddress, 12, 0) }
        guard count == 12, UInt32(Self.littleEndian(bytes, 8, 4)) == CRC32.checksum(bytes[0..<8]) else { return 0 }
        return Self.littleEndian(bytes, 0, 8)
    }

    private func readSegments() throws(MQTTError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .persistence(folder: directory, detail: error.localizedDescription)
        }
        let firsts = names.compactMap { name -> UInt64? in
            guard name.hasSuffix(Self.segmentSuffix) else { return nil }
            return UInt64(name.dropLast(Self.segmentSuffix.count))
        }.sorted()
        for first in firsts {
            let path = directory + "/" + Self.segmentName(first)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .persistence(folder: directory, detail: "reading \(Self.segmentName(first)): it cannot be opened")
            }
            let bytes = [UInt8](data)
            var offset = 0
            var last: UInt64?
            while case let (sequence, body, size)? = Self.record(bytes, at: offset) {
                if sequence >= cursor { recovered.append((sequence, body)) }
                last = sequence
                newest = max(newest ?? 0, sequence)
                offset += size
            }
            if offset < bytes.count {
                tornSegments += 1
                guard truncate(path, off_t(offset)) == 0 else {
                    throw .persistence(folder: directory, detail: "cutting \(Self.segmentName(first)) back to its last whole record: \(Self.systemError())")
                }
            }
            if let last, last >= cursor {
                segments.append(Segment(first: first, last: last, path: path))
            } else if unlink(path) != 0, errno != ENOENT {
                throw .persistence(folder: directory, detail: "removing \(Self.segmentName(first)): \(Self.systemError())")
            }
        }
    }

    /// The whole record at `offset`: its sequence, message and size; nil at the end or at a
    /// torn or damaged record.
    private static func record(_ bytes: [UInt8], at offset: Int) -> (UInt64, ArraySlice<UInt8>, Int)? {
        guard offset + headerSize <= bytes.count else { return nil }
        let length = Int(littleEndian(bytes, offset, 4))
        let start = offset + headerSize
        guard length >= 8, length <= bytes.count - start else { return nil }
        let body = bytes[start..<start + length]
        guard CRC32.checksum(body) == UInt32(littleEndian(bytes, offset + 4, 4)) else { return nil }
        return (littleEndian(bytes, start, 8), body.dropFirst(8), headerSize + length)
    }

    private func startSegment(_ sequence: UInt64) throws(MQTTError) {
        if appendFD >= 0 { close(appendFD) }
        let path = directory + "/" + Self.segmentName(sequence)
        appendFD = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        guard appendFD >= 0 else { throw .persistence(folder: directory, detail: "creating \(Self.segmentName(sequence)): \(Self.systemError())") }
        appendSize = 0
        segments.append(Segment(first: sequence, last: sequence, path: path))
    }

    /// Zero-padded, so the folder lists in sending order.
    static func segmentName(_ first: UInt64) -> String {
        let digits = String(first)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + segmentSuffix
    }

    // MARK: - Bytes

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                return systemError()
            }
            written += n
        }
        return nil
    }

    private static func appendLittleEndian(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for index in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}
