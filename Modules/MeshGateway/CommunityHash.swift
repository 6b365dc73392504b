import MeshCodec

/// The `hash` field of a packet message: the firmware's packet hash (SHA-256 over the payload
/// type byte, for TRACE also the path length as a little-endian u16, then the payload; first
/// 8 bytes), as 16 upper-case hex digits. Two gateways hearing one packet send the same hash,
/// whatever path each copy took.
func communityHash(_ packet: AirPacket) -> String {
    var sha = SHA256()
    sha.update([packet.payloadType.rawValue])
    if packet.payloadType == .trace { sha.update([packet.path.length.raw, 0]) }
    sha.update(packet.payload)
    return Hex.encode(sha.finalize().prefix(8)).uppercased()
}
