import Foundation
import MeshCodec

/// A login to a repeater, room server or sensor.
public struct SavedLogin: Hashable, Sendable {
    public var radio: RadioID
    public var node: PublicKey
    public var role: NodeType
    /// LOGIN_SUCCESS ACL permissions (low 2 bits: guest, read-only, read-write, admin).
    public var permission: UInt8
    public var isConnected: Bool
    public var lastLoginAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
}

/// A post a room server pushed to us (signed text: the author's 4-byte key prefix).
public struct RoomMessage: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var radio: RadioID
    public var room: PublicKey
    public var authorPrefix: KeyPrefix
    public var text: String
    public var textType: TextType
    public var snrX4: Int8?
    public var senderTimestamp: UInt32
    public var timestamp: Date
    public var createdAt: Date
    public var updatedAt: Date

    public var cursor: TimelineCursor { TimelineCursor(timestamp: timestamp.storeMillis, id: id) }
}
