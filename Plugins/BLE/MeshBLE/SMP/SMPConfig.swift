/// How this host pairs as a central.
public struct SMPConfig: Sendable {
    /// The radio's PIN, 0...999999. With the radio displaying (MeshCore's DisplayOnly) this
    /// host "types" it; should the association model make this host the displaying side, it
    /// is the number to type on the radio.
    public var passkey: UInt32
    /// KeyboardOnly by default: passkey entry with every radio that has a display or keyboard
    /// (the radio's PIN is typed here), never numeric comparison, which would need a person to
    /// confirm a number. KeyboardDisplay also works with DisplayOnly radios, but yields
    /// numeric comparison (refused) with DisplayYesNo and KeyboardDisplay radios under LE
    /// Secure Connections.
    public var ioCapability: PairingFeatures.IO = .keyboardOnly
    /// Ask the radio to keep the keys (Bonding_Flags = Bonding) and exchange keys.
    public var bonding = true
    public var allowSecureConnections = true
    public var allowLegacy = true
    /// 7...16 bytes.
    public var maxKeySize: UInt8 = 16
    /// This host's identity, distributed when bonding: the IRK (16 bytes, least significant
    /// first) and the identity address, which must be the public or random static address
    /// this host connects with.
    public var localIdentity: (irk: [UInt8], address: BDAddress)?

    public init(passkey: UInt32) { self.passkey = passkey }

    /// What is wrong with this configuration, nil when it can pair.
    func problem() -> SMPError? {
        guard passkey <= 999_999 else { return .invalidPasskey(passkey) }
        guard allowSecureConnections || allowLegacy else {
            return .invalidConfiguration("both LE Secure Connections and legacy pairing are disallowed")
        }
        guard (7...16).contains(maxKeySize) else { return .invalidConfiguration("maximum key size \(maxKeySize) is outside 7...16 bytes") }
        if let identity = localIdentity {
            guard identity.irk.count == 16 else { return .invalidConfiguration("the local IRK is \(identity.irk.count) bytes, not 16") }
            guard identity.address.kind == .public || identity.address.isRandomStatic else {
                return .invalidConfiguration("identity address \(identity.address) is neither public nor random static")
            }
        }
        return nil
    }
}
