import Foundation
import MeshCodec

/// A radio this database has seen: its identity and settings (SELF_INFO), the contact-sync
/// watermark and when it was last connected.
public struct StoredRadio: Hashable, Sendable {
    public var id: RadioID
    public var selfInfo: SelfInfo
    /// The newest contact `lastmod` of a completed sync: the `since` of the next GET_CONTACTS.
    public var contactsLastmod: UInt32
    public var lastConnectedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public var publicKey: PublicKey { selfInfo.publicKey }
    public var name: String { selfInfo.name }
}
