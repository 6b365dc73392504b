/// CRC-32 (IEEE 802.3, as zlib computes it), to tell a whole record from a torn one: the
/// backlog's log (BacklogSegments.swift) and the ingest worker's spool (MeshIngest) use it.
public enum CRC32 {
    @usableFromInline static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    /// Inlinable: specialized for the caller's collection, in other modules too.
    @inlinable public static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
