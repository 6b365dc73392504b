/// What the connection must do for the Security Manager, in order.
public enum SMPAction: Equatable, Sendable {
    /// Send this PDU on L2CAP channel 6 (the fixed SMP channel).
    case send([UInt8])
    /// Issue HCI_LE_Enable_Encryption with this key, EDIV and Rand, then report the
    /// Encryption Change to `SMPInitiator.encryptionChanged`. The LTK (or legacy STK) is 16
    /// bytes, least significant byte first: the order HCI takes it in, so it goes into the
    /// command unchanged. EDIV and Rand are numbers (HCI writes them little endian).
    case startEncryption(ltk: [UInt8], ediv: UInt16, rand: UInt64)
    /// Pairing finished: the link is encrypted and all announced keys were exchanged. Store the
    /// bond when `bond.ltk` has 16 bytes.
    case completed(SMPBond)
    /// Pairing failed; a Pairing Failed PDU, if one is owed to the radio, came as `.send` just before.
    case failed(SMPError)
}
