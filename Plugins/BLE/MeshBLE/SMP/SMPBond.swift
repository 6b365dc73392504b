import Foundation

/// What pairing leaves behind: the key a later connection encrypts with, what the radio told
/// about its identity, and the keys this host gave it. Stored by `BondStore` (mode 0600).
/// Keys are least significant byte first, as SMP PDUs and HCI carry them.
public struct SMPBond: Codable, Equatable, Sendable {
    /// The address connected to ("F0:00:00:00:00:01") and whether it is a random address.
    public var peer: String
    public var peerRandom: Bool
    /// The LTK for HCI_LE_Enable_Encryption (16 bytes). Empty after a legacy pairing in which
    /// the radio distributed no key: that link was encrypted for one connection only.
    public var ltk: [UInt8]
    /// EDIV and Rand for HCI_LE_Enable_Encryption (0 and 0 after LE Secure Connections).
    public var ediv: UInt16
    public var rand: UInt64
    /// Negotiated encryption key size, 7...16 bytes.
    public var keySize: UInt8
    /// Paired with a PIN (man-in-the-middle protection).
    public var authenticated: Bool
    /// LE Secure Connections (else legacy pairing).
    public var secureConnections: Bool
    /// The radio's identity resolving key and identity address, when it distributed them.
    public var peerIRK: [UInt8]?
    public var peerIdentity: String?
    public var peerIdentityRandom: Bool?
    /// The radio's signing key, when it distributed one.
    public var peerCSRK: [UInt8]?
    /// Keys this host distributed: the LTK, EDIV and Rand (legacy pairing) and its identity.
    public var localLTK: [UInt8]?
    public var localEDIV: UInt16?
    public var localRand: UInt64?
    public var localIRK: [UInt8]?
    public var localIdentity: String?
    public var localIdentityRandom: Bool?
    public var pairedAt: Date

    public init(peer: BDAddress, ltk: [UInt8], ediv: UInt16, rand: UInt64, keySize: UInt8, authenticated: Bool,
                secureConnections: Bool, peerIRK: [UInt8]? = nil, peerIdentity: BDAddress? = nil, pairedAt: Date = Date())
    {
        self.peer = peer.description
        peerRandom = peer.kind == .random
        self.ltk = ltk
        self.ediv = ediv
        self.rand = rand
        self.keySize = keySize
        self.authenticated = authenticated
        self.secureConnections = secureConnections
        self.peerIRK = peerIRK
        self.pairedAt = pairedAt
        setPeerIdentity(peerIdentity)
    }

    /// Whether this bond belongs to a radio seen at `address`: the address connected to, or the
    /// identity address it distributed. The type is not compared: users type addresses without
    /// it (meshport ble forget), and two devices differing only in address type do not meet.
    public func matches(_ address: BDAddress) -> Bool {
        peer == address.description || peerIdentity == address.description
    }

    mutating func setPeerIdentity(_ address: BDAddress?) {
        peerIdentity = address?.description
        peerIdentityRandom = address.map { $0.kind == .random }
    }

    mutating func setLocalIdentity(irk: [UInt8], address: BDAddress) {
        localIRK = irk
        localIdentity = address.description
        localIdentityRandom = address.kind == .random
    }
}
