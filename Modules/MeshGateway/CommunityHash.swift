import MeshCodec

/// The `hash` field of a packet message: the firmware's packet hash (`AirPacket.hash()`) as 16
/// upper-case hex digits. Two gateways hearing one packet send the same hash, whatever path
/// each copy took.
func communityHash(_ packet: AirPacket) -> String {
    Hex.encode(packet.hash()).uppercased()
}
