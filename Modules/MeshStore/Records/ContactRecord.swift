import Foundation
import GRDB
import MeshCodec

/// Row of `contacts`: one radio's contact record plus the app's state about it.
struct ContactRecord: FetchableRecord, MutablePersistableRecord, RowValues, Sendable {
    static let databaseTableName = "contacts"
    static let columns = [
        "radioId", "publicKey", "type", "flags", "outPathLength", "outPathHashMode", "outPath", "name", "latitudeE6", "longitudeE6",
        "lastAdvert", "lastmod", "isFavourite",
    ] + ThreadState.columns + ["createdAt", "updatedAt", "removedAt"]

    var id: Int64?
    var radioId: Int64
    var contact: Contact
    var thread = ThreadState()
    var createdAt: Date
    var updatedAt: Date
    /// When the radio no longer had it (REMOVE_CONTACT, a full sync without it); nil while it has.
    var removedAt: Date?

    init(radio: RadioID, contact: Contact, now: Date) {
        radioId = radio.rawValue
        self.contact = contact
        createdAt = now
        updatedAt = now
    }

    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        radioId = try row.decode(forColumn: "radioId")
        let length = PathLength(raw: try row.decode(forColumn: "outPathLength"))
        contact = Contact(
            publicKey: try row.publicKey("publicKey", table: Self.databaseTableName), type: NodeType(rawValue: try row.decode(forColumn: "type")),
            flags: ContactFlags(rawValue: try row.decode(forColumn: "flags")), outPath: Path(length: length, bytes: try row.bytes("outPath")),
            name: try row.decode(forColumn: "name"), lastAdvert: try row.decode(forColumn: "lastAdvert"),
            position: Coordinates(latitudeE6: try row.decode(forColumn: "latitudeE6"), longitudeE6: try row.decode(forColumn: "longitudeE6")),
            lastModified: try row.decode(forColumn: "lastmod"))
        thread = try ThreadState(row: row)
        createdAt = try row.millis("createdAt")
        updatedAt = try row.millis("updatedAt")
        removedAt = try row.optionalMillis("removedAt")
    }

    func write(to s: inout some ColumnSink) {
        let length = contact.outPath.length
        s.int(radioId)
        s.blob(contact.publicKey.bytes)
        s.int(contact.type.rawValue)
        s.int(contact.flags.rawValue)
        s.int(length.raw)
        s.int(length.isNone ? 0 : length.raw >> 6)  // bytes per hop minus one: the hash mode the path was learnt with
        s.blob(contact.outPath.bytes)
        s.text(contact.name)
        s.int(contact.position.latitudeE6)
        s.int(contact.position.longitudeE6)
        s.int(contact.lastAdvert)
        s.int(contact.lastModified)
        s.bool(contact.flags.contains(.favourite))
        thread.write(to: &s)
        s.int(createdAt.storeMillis)
        s.int(updatedAt.storeMillis)
        s.int(removedAt?.storeMillis)
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id
        encodeValues(to: &c)
    }


    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var value: StoredContact {
        StoredContact(radio: RadioID(rawValue: radioId), contact: contact, unreadCount: thread.unreadCount, messageCount: thread.messageCount,
                      isFavourite: contact.flags.contains(.favourite), isArchived: thread.isArchived, createdAt: createdAt, updatedAt: updatedAt,
                      removedAt: removedAt)
    }
}
