import Foundation

/// What pairing leaves behind: the key a later connection encrypts with, and what the radio
/// told about its identity. Stored by `BondStore` (mode 0600).
public struct SMPBond: Codable, Equatable, Sendable {
    /// The address connected to ("F0:00:00:00:00:01") and its type.
    public var peer: String
    public var peerRandom: Bool
    /// LTK least significant byte first, as HCI_LE_Enable_Encryption takes it.
    public var ltk: [UInt8]
    public var ediv: UInt16
    public var rand: UInt64
    public var keySize: UInt8
    /// Paired with a passkey (MITM protection).
    public var authenticated: Bool
    /// LE Secure Connections (else legacy).
    public var secureConnections: Bool
    /// The radio's identity resolving key and identity address, when it sent them.
    public var peerIRK: [UInt8]?
    public var peerIdentity: String?
    public var pairedAt: Date

    public init(peer: BDAddress, ltk: [UInt8], ediv: UInt16, rand: UInt64, keySize: UInt8, authenticated: Bool,
                secureConnections: Bool, peerIRK: [UInt8]? = nil, peerIdentity: BDAddress? = nil, pairedAt: Date = Date()) {
        self.peer = peer.description
        peerRandom = peer.kind == .random
        self.ltk = ltk
        self.ediv = ediv
        self.rand = rand
        self.keySize = keySize
        self.authenticated = authenticated
        self.secureConnections = secureConnections
        self.peerIRK = peerIRK
        self.peerIdentity = peerIdentity?.description
        self.pairedAt = pairedAt
    }
}
