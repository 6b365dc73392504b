import Foundation
import GRDB
import MeshCodec

/// Row of `radios`: identity and settings of one radio (SELF_INFO).
struct RadioRecord: FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "radios"

    var id: Int64
    var info: SelfInfo
    var contactsLastmod: UInt32
    var lastConnectedAt: Date?
    var createdAt: Date
    var updatedAt: Date

    init(info: SelfInfo, now: Date) {
        id = RadioID(publicKey: info.publicKey).rawValue
        self.info = info
        contactsLastmod = 0
        lastConnectedAt = nil
        createdAt = now
        updatedAt = now
    }

    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        let radio = RadioParams(frequencyKHz: try row.decode(forColumn: "frequencyKHz"), bandwidthHz: try row.decode(forColumn: "bandwidthHz"),
                                spreadingFactor: try row.decode(forColumn: "spreadingFactor"), codingRate: try row.decode(forColumn: "codingRate"))
        info = SelfInfo(
            advertType: NodeType(rawValue: try row.decode(forColumn: "advertType")), txPower: try row.decode(forColumn: "txPower"),
            maxTxPower: try row.decode(forColumn: "maxTxPower"), publicKey: try row.publicKey("publicKey", table: Self.databaseTableName),
            position: Coordinates(latitudeE6: try row.decode(forColumn: "latitudeE6"), longitudeE6: try row.decode(forColumn: "longitudeE6")),
            multiAcks: try row.decode(forColumn: "multiAcks"), advertLocationPolicy: try row.decode(forColumn: "advertLocationPolicy"),
            telemetryModes: TelemetryModes(rawValue: try row.decode(forColumn: "telemetryModes")),
            manualAddContacts: try row.decode(forColumn: "manualAddContacts"), radio: radio, name: try row.decode(forColumn: "name"))
        contactsLastmod = try row.decode(forColumn: "contactsLastmod")
        lastConnectedAt = try row.optionalMillis("lastConnectedAt")
        createdAt = try row.millis("createdAt")
        updatedAt = try row.millis("updatedAt")
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id
        c["publicKey"] = Data(info.publicKey.bytes)
        c["name"] = info.name
        c["advertType"] = info.advertType.rawValue
        c["txPower"] = info.txPower
        c["maxTxPower"] = info.maxTxPower
        c["latitudeE6"] = info.position.latitudeE6
        c["longitudeE6"] = info.position.longitudeE6
        c["multiAcks"] = info.multiAcks
        c["advertLocationPolicy"] = info.advertLocationPolicy
        c["telemetryModes"] = info.telemetryModes.rawValue
        c["manualAddContacts"] = info.manualAddContacts
        c["frequencyKHz"] = info.radio.frequencyKHz
        c["bandwidthHz"] = info.radio.bandwidthHz
        c["spreadingFactor"] = info.radio.spreadingFactor
        c["codingRate"] = info.radio.codingRate
        c["contactsLastmod"] = contactsLastmod
        c["lastConnectedAt"] = lastConnectedAt?.storeMillis
        c["createdAt"] = createdAt.storeMillis
        c["updatedAt"] = updatedAt.storeMillis
    }

    var value: StoredRadio {
        StoredRadio(id: RadioID(rawValue: id), selfInfo: info, contactsLastmod: contactsLastmod, lastConnectedAt: lastConnectedAt,
                    createdAt: createdAt, updatedAt: updatedAt)
    }
}
