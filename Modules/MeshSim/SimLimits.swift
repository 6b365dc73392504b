/// Build-time sizes of the simulated firmware (Docs/protocol.md §7, MyMesh.h defaults).
public struct SimLimits: Hashable, Sendable {
    /// `MAX_CONTACTS`: 100 in the default build.
    public var maxContacts = 100
    /// `MAX_GROUP_CHANNELS`: 8 on this simulated board.
    public var channelSlots = 8
    /// `OFFLINE_QUEUE_SIZE`: 16 in the default build.
    public var offlineQueueSize = 16
    /// `MAX_LORA_TX_POWER` of the board, dBm.
    public var maxTxPower: Int8 = 20
    /// A board whose radio driver keeps the power at most this, dBm, accepting a higher
    /// SET_RADIO_TX_POWER and reporting the capped value (nil: no cap): lets clients test
    /// their read-back of settings the radio does not keep as written.
    public var txPowerCap: Int8?
    /// `EXPECTED_ACK_TABLE_SIZE`: the last 8 sends can still be confirmed.
    public var expectedAckTableSize = 8

    public init() {}
}
