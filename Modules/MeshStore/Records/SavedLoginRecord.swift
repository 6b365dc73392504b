import Foundation
import GRDB
import MeshCodec

/// Row of `remote_sessions`: our login state with a repeater, room server or sensor.
struct SavedLoginRecord: FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "remote_sessions"

    var id: Int64?
    var radioId: Int64
    var contactId: Int64
    var role: UInt8
    var permission: UInt8
    var isConnected: Bool
    var lastLoginAt: Date?
    var messageCount: Int
    var createdAt: Date
    var updatedAt: Date
    /// From the join with contacts.
    var nodeKey: PublicKey?

    init(radioId: Int64, contactId: Int64, role: NodeType, now: Date) {
        self.radioId = radioId
        self.contactId = contactId
        self.role = role.rawValue
        permission = 0
        isConnected = false
        messageCount = 0
        createdAt = now
        updatedAt = now
    }

    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        radioId = try row.decode(forColumn: "radioId")
        contactId = try row.decode(forColumn: "contactId")
        role = try row.decode(forColumn: "role")
        permission = try row.decode(forColumn: "permission")
        isConnected = try row.decode(forColumn: "isConnected")
        lastLoginAt = try row.optionalMillis("lastLoginAt")
        messageCount = try row.decode(forColumn: "messageCount")
        createdAt = try row.millis("createdAt")
        updatedAt = try row.millis("updatedAt")
        if try row.decode(Data?.self, forColumn: "nodeKey") != nil { nodeKey = try row.publicKey("nodeKey", table: "contacts") }
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id
        c["radioId"] = radioId
        c["contactId"] = contactId
        c["role"] = role
        c["permission"] = permission
        c["isConnected"] = isConnected
        c["lastLoginAt"] = lastLoginAt?.storeMillis
        c["messageCount"] = messageCount
        c["createdAt"] = createdAt.storeMillis
        c["updatedAt"] = updatedAt.storeMillis
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func value(node: PublicKey) -> SavedLogin {
        SavedLogin(radio: RadioID(rawValue: radioId), node: node, role: NodeType(rawValue: role), permission: permission,
                      isConnected: isConnected, lastLoginAt: lastLoginAt, createdAt: createdAt, updatedAt: updatedAt)
    }
}
