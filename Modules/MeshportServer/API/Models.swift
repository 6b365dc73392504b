import Foundation
import MeshCodec
import MeshServices
import MeshStore

// The JSON the API answers with (Docs/openapi.json describes each). Keys are hex, times are
// ISO 8601 in UTC (JSONTime), optional fields are left out rather than null. What events carry
// too (messages, contacts, radios, ...) is in MeshServices/EventSchema, shared with `listen`.

struct RadioParamsJSON: Codable, Sendable {
    var frequencyMHz: Double
    var bandwidthKHz: Double
    var spreadingFactor: Int
    var codingRate: Int

    init(_ p: RadioParams) {
        frequencyMHz = p.frequencyMHz
        bandwidthKHz = p.bandwidthKHz
        spreadingFactor = Int(p.spreadingFactor)
        codingRate = Int(p.codingRate)
    }
}

struct SelfInfoJSON: Encodable, Sendable {
    var name: String
    var publicKey: String
    var type: String
    var txPower: Int
    var maxTxPower: Int
    var latitude: Double
    var longitude: Double
    var radio: RadioParamsJSON
    var multiAcks: Bool
    var advertLocationPolicy: Int
    var manualAddContacts: Bool

    init(_ s: SelfInfo) {
        name = s.name
        publicKey = s.publicKey.hex
        type = s.advertType.description
        txPower = Int(s.txPower)
        maxTxPower = Int(s.maxTxPower)
        latitude = s.position.latitude
        longitude = s.position.longitude
        radio = RadioParamsJSON(s.radio)
        multiAcks = s.multiAcks != 0
        advertLocationPolicy = Int(s.advertLocationPolicy)
        manualAddContacts = s.manualAddContacts & 1 == 1
    }
}

/// The radio's advert as sent: the position only when its location policy shares it.
struct AdvertJSON: Encodable, Sendable {
    var name: String
    var publicKey: String
    var flood: Bool
    var latitude: Double?
    var longitude: Double?

    init(_ s: SelfInfo, flood: Bool) {
        name = s.name
        publicKey = s.publicKey.hex
        self.flood = flood
        latitude = s.advertisedPosition?.latitude
        longitude = s.advertisedPosition?.longitude
    }
}

struct MessagePageJSON: Encodable, Sendable {
    var messages: [MessageJSON]
    /// Pass as `before` for the next (older) page; absent on the oldest page.
    var older: String?
}

struct ConversationJSON: Encodable, Sendable {
    var conversation: ConversationRefJSON
    var name: String
    var unread: Int
    var messages: Int
    var lastMessageAt: String
    var lastMessage: MessageJSON?

    init(_ c: ConversationSummary) {
        conversation = ConversationRefJSON(c.conversation)
        name = c.name
        unread = c.unreadCount
        messages = c.messageCount
        lastMessageAt = JSONTime.iso(c.lastMessageAt)
        lastMessage = c.lastMessage.map(MessageJSON.init)
    }
}

struct ConversationListJSON: Encodable, Sendable {
    var conversations: [ConversationJSON]
    var totalUnread: Int
}

/// A channel slot. Its secret is never part of any answer.
struct ChannelJSON: Encodable, Sendable {
    var index: Int
    var name: String
    var kind: String
    var unread: Int
    var messages: Int

    init(_ c: StoredChannel) {
        index = Int(c.index)
        name = c.name
        kind = c.kind.rawValue
        unread = c.unreadCount
        messages = c.messageCount
    }
}

struct SavedLoginJSON: Encodable, Sendable {
    var key: String
    var name: String?
    var role: String
    var permission: Int
    var admin: Bool
    var connected: Bool
    var lastLoginAt: String?

    init(_ s: SavedLogin, name: String?) {
        key = s.node.hex
        self.name = name
        role = s.role.description
        permission = Int(s.permission)
        admin = s.permission & 3 == 3
        connected = s.isConnected
        lastLoginAt = s.lastLoginAt.map(JSONTime.iso)
    }
}

struct LoginJSON: Encodable, Sendable {
    var key: String
    var role: String
    var admin: Bool
    var permission: Int
    var firmwareLevel: Int?

    init(_ l: RemoteLogin) {
        key = l.node.hex
        role = l.role.description
        admin = l.isAdmin
        permission = Int(l.permission)
        firmwareLevel = l.firmwareLevel.map(Int.init)
    }
}

extension RadioJSON {
    init(_ s: RadioSummary) {
        self.init(id: s.id, url: s.url, state: s.state, lastError: s.lastError, sync: s.sync.map(SyncJSON.init), name: s.selfInfo?.name,
                  publicKey: s.selfInfo?.publicKey.hex, connectedAt: s.connectedAt.map(JSONTime.iso))
    }
}

struct ReadingsJSON: Encodable, Sendable {
    var readings: [ReadingJSON]
}

struct StatsSampleJSON: Encodable, Sendable {
    var recordedAt: String
    var batteryMillivolts: Int?
    var uptimeSeconds: Int?
    var queueLength: Int?
    var noiseFloor: Int?
    var lastRSSI: Int?
    var lastSNR: Double?
    var txAirtimeSeconds: Int?
    var rxAirtimeSeconds: Int?
    var packetsReceived: Int?
    var packetsSent: Int?
    var sentFlood: Int?
    var sentDirect: Int?
    var receivedFlood: Int?
    var receivedDirect: Int?
    var receiveErrors: Int?

    init(_ s: StatsSample) {
        recordedAt = JSONTime.iso(s.recordedAt)
        batteryMillivolts = s.batteryMillivolts
        uptimeSeconds = s.uptimeSeconds
        queueLength = s.queueLength
        noiseFloor = s.noiseFloor
        lastRSSI = s.lastRSSI
        lastSNR = s.lastSNRx4.map { Double($0) / 4 }
        txAirtimeSeconds = s.txAirtimeSeconds
        rxAirtimeSeconds = s.rxAirtimeSeconds
        packetsReceived = s.packetsReceived
        packetsSent = s.packetsSent
        sentFlood = s.sentFlood
        sentDirect = s.sentDirect
        receivedFlood = s.receivedFlood
        receivedDirect = s.receivedDirect
        receiveErrors = s.receiveErrors
    }
}

struct StatsHistoryJSON: Encodable, Sendable {
    var node: String?
    var samples: [StatsSampleJSON]
}

struct SettingJSON: Encodable, Sendable {
    struct Choice: Encodable, Sendable {
        var value: String
        var label: String
    }

    var name: String
    var type: String
    var range: String
    var summary: String
    var writable: Bool
    var value: String?
    var choices: [Choice]?

    init(_ d: SettingDescriptor, value: String?) {
        name = d.name
        type = d.type
        range = d.range
        summary = d.summary
        writable = d.isWritable
        self.value = value
        choices = d.choices.isEmpty ? nil : d.choices.map { Choice(value: $0.value, label: $0.label) }
    }
}

struct SettingChangeJSON: Encodable, Sendable {
    var setting: String
    var before: String
    var wrote: String
    var after: String

    init(_ c: SettingChange) {
        setting = c.setting
        before = c.before
        wrote = c.wrote
        after = c.after
    }
}

struct SnippetPartJSON: Encodable, Sendable {
    var text: String
    var match: Bool
}

struct SearchHitJSON: Encodable, Sendable {
    var message: MessageJSON
    var snippet: [SnippetPartJSON]
    var score: Double

    init(_ h: SearchHit) {
        message = MessageJSON(h.message)
        snippet = h.snippet.parts.map { SnippetPartJSON(text: $0.text, match: $0.isMatch) }
        score = h.score
    }
}

struct SearchJSON: Encodable, Sendable {
    var query: String
    var hits: [SearchHitJSON]
}

struct RoomPostJSON: Encodable, Sendable {
    var id: Int64
    var author: String
    var text: String
    var timestamp: String

    init(_ m: RoomMessage) {
        id = m.id
        author = m.authorPrefix.hex
        text = m.text
        timestamp = JSONTime.iso(m.timestamp)
    }
}

struct RoomPageJSON: Encodable, Sendable {
    var posts: [RoomPostJSON]
    var older: String?
}

struct HealthJSON: Encodable, Sendable {
    var status: String
    var radios: Int
    var ready: Int
}

struct OKJSON: Encodable, Sendable {
    var ok = true
}
