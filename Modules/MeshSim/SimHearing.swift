import MeshCodec

/// One packet a radio heard, as `meshport sim --heard-log` records it: what the air delivered,
/// for tests that count what a gateway passed on.
public struct SimHearing: Hashable, Sendable {
    /// The radio that heard it.
    public var radio: PublicKey
    /// Its LOG_RX_DATA push: SNR, RSSI and the raw packet.
    public var packet: ReceivedPacket
    /// When, on the simulation's clock.
    public var elapsed: Duration
    /// Whether a link was attached to take the push (the firmware pushes only then).
    public var pushed: Bool
}
