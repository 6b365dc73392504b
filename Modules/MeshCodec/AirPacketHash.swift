/// The packet hash: how every MeshCore node tells one packet from another, whatever path or
/// route it came by (the firmware de-duplicates by it; the community's MQTT tools publish it
/// as `hash`). SHA-256 over the payload type byte, for TRACE the encoded path length as a
/// little-endian u16 (the firmware hashes its 2-byte field), then the payload.
extension AirPacket {
    /// The hash's first `size` bytes (the firmware keeps 8).
    public func hash(size: Int = 8) -> [UInt8] {
        var sha = SHA256()
        sha.update([payloadType.rawValue])
        if payloadType == .trace { sha.update([path.length.raw, 0]) }
        sha.update(payload)
        return Array(sha.finalize().prefix(size))
    }

    /// The hash as the firmware prints it and the community tools publish it: its first 8
    /// bytes as 16 upper-case hex digits.
    public var hashText: String { Hex.encode(hash(size: 8)).uppercased() }
}
