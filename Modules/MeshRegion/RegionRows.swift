import Crypto
import Foundation
import NIOCore

/// A batch checked and turned into columns, one array per column, as the write statements
/// pass them to `unnest`. Rows that upsert the same key are merged here first: one statement
/// may not update a row twice. Keys are sorted, so two workers lock rows in the same order.
struct RegionRows {
    struct Observers {
        var keys: [ByteBuffer] = [], regions: [String] = [], names: [String] = []
        var models: [String?] = [], firmwares: [String?] = [], clientVersions: [String?] = [], radios: [String?] = []
        var stats: [String?] = [], online: [Bool] = [], firstSeen: [Date] = [], lastSeen: [Date] = []
    }

    struct Packets {
        var hashes: [ByteBuffer] = [], raws: [ByteBuffer] = [], lengths: [Int32] = []
        var payloadTypes: [Int16?] = [], routes: [Int16?] = [], logicalHashes: [String?] = []
        var firstSeen: [Date] = [], lastSeen: [Date] = []
    }

    struct Observations {
        var regions: [String] = [], observerKeys: [ByteBuffer] = [], packetHashes: [ByteBuffer] = []
        var logicalHashes: [String?] = [], payloadTypes: [Int16?] = [], sourceKeys: [ByteBuffer?] = []
        var heardAt: [Date] = [], directions: [String] = [], snrs: [Double?] = [], rssis: [Int32?] = [], paths: [ByteBuffer?] = []
    }

    struct Nodes {
        var keys: [ByteBuffer] = [], names: [String?] = [], kinds: [String] = []
        var latitudes: [Double?] = [], longitudes: [Double?] = [], positionAt: [Date?] = []
        var firstSeen: [Date] = [], lastSeen: [Date] = [], lastAdvert: [Date] = []
    }

    struct Adverts {
        var nodeKeys: [ByteBuffer] = [], advertisedAt: [Date] = [], names: [String?] = [], kinds: [String] = []
        var latitudes: [Double?] = [], longitudes: [Double?] = [], logicalHashes: [String] = [], heardAt: [Date] = []
    }

    struct ChannelMessages {
        var logicalHashes: [String] = [], regions: [String] = [], channelNames: [String] = [], channelHashes: [Int16] = []
        var senders: [String?] = [], texts: [String] = [], sentAt: [Date] = [], heardAt: [Date] = []
    }

    struct Traces {
        var logicalHashes: [String] = [], regions: [String] = [], tags: [Int64] = [], hops: [ByteBuffer] = []
        /// Each hop list as an array literal (`{1.5,-3}`): `unnest` takes no array of arrays of different lengths.
        var hopSNRs: [String] = [], heardAt: [Date] = []
    }

    struct Rejected {
        var topics: [String] = [], payloads: [ByteBuffer] = [], reasons: [String] = [], receivedAt: [Date] = []
    }

    var observers = Observers()
    var packets = Packets()
    var observations = Observations()
    var nodes = Nodes()
    var adverts = Adverts()
    var channelMessages = ChannelMessages()
    var traces = Traces()
    var rejected = Rejected()
    /// The UTC days (days since 1970) the observations fall on: each needs its partition.
    var days: Set<Int> = []

    init(_ batch: RegionBatch) throws(RegionStoreError) {
        try addObservers(batch.observers)
        try addHearings(batch.hearings)
        try addRejected(batch.rejected)
    }

    private mutating func addObservers(_ reports: [ObserverReport]) throws(RegionStoreError) {
        var latest: [[UInt8]: (report: ObserverReport, firstSeen: Date)] = [:]
        for (index, report) in reports.enumerated() {
            let at = "observer report \(index + 1)"
            try check(key: report.key, "\(at): the observer key")
            for (field, text) in [("region", report.region), ("name", report.name), ("model", report.model), ("firmware", report.firmware),
                                  ("client version", report.clientVersion), ("radio", report.radio), ("stats", report.statsJSON)] {
                try check(text: text, "\(at): the \(field)")
            }
            try check(time: report.reportedAt, "\(at): the report time")
            if let stats = report.statsJSON, !Self.isJSON(stats) { throw .badBatch(reason: "\(at): the stats are not JSON") }
            if let seen = latest[report.key] {
                let first = min(seen.firstSeen, report.reportedAt)
                latest[report.key] = (report.reportedAt >= seen.report.reportedAt ? report : seen.report, first)
            } else {
                latest[report.key] = (report, report.reportedAt)
            }
        }
        for (key, entry) in latest.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let report = entry.report
            observers.keys.append(ByteBuffer(bytes: key))
            observers.regions.append(report.region)
            observers.names.append(report.name)
            observers.models.append(report.model)
            observers.firmwares.append(report.firmware)
            observers.clientVersions.append(report.clientVersion)
            observers.radios.append(report.radio)
            observers.stats.append(report.statsJSON)
            observers.online.append(report.online)
            observers.firstSeen.append(entry.firstSeen)
            observers.lastSeen.append(report.reportedAt)
        }
    }

    private mutating func addHearings(_ hearings: [Hearing]) throws(RegionStoreError) {
        var distinctPackets: [[UInt8]: (hash: [UInt8], hearing: Hearing, first: Date, last: Date)] = [:]
        var latestAdverts: [[UInt8]: NodeFold] = [:]
        var firstAdverts: [AdvertKey: (advert: NodeAdvert, hash: String, heardAt: Date)] = [:]
        var firstTexts: [String: (text: ChannelText, region: String, heardAt: Date)] = [:]
        var firstTraces: [String: (trace: TraceReport, region: String, heardAt: Date)] = [:]
        for (index, hearing) in hearings.enumerated() {
            let at = "hearing \(index + 1)"
            try check(key: hearing.observerKey, "\(at): the observer key")
            try check(text: hearing.region, "\(at): the region")
            try check(time: hearing.heardAt, "\(at): the time heard")
            guard !hearing.raw.isEmpty else { throw .badBatch(reason: "\(at): the raw packet is empty") }
            if let rssi = hearing.rssi, Int32(exactly: rssi) == nil { throw .badBatch(reason: "\(at): RSSI \(rssi) is out of range") }
            if let decoded = hearing.decoded { try check(decoded, at) }

            let packetHash: [UInt8]
            if let seen = distinctPackets[hearing.raw] {
                packetHash = seen.hash
                distinctPackets[hearing.raw] = (seen.hash, seen.hearing, min(seen.first, hearing.heardAt), max(seen.last, hearing.heardAt))
            } else {
                packetHash = Array(SHA256.hash(data: hearing.raw))
                distinctPackets[hearing.raw] = (packetHash, hearing, hearing.heardAt, hearing.heardAt)
            }
            days.insert(Self.day(of: hearing.heardAt))

            var source: [UInt8]?
            for fact in hearing.decoded?.facts ?? [] {
                let hash = hearing.decoded?.packetHash ?? ""
                switch fact {
                case .advert(let advert):
                    source = advert.key
                    latestAdverts[advert.key, default: NodeFold(advert: advert, heardAt: hearing.heardAt)].add(advert, heardAt: hearing.heardAt)
                    let key = AdvertKey(node: advert.key, at: advert.advertisedAt)
                    if firstAdverts[key].map({ hearing.heardAt < $0.heardAt }) ?? true { firstAdverts[key] = (advert, hash, hearing.heardAt) }
                case .channelText(let text):
                    if firstTexts[hash].map({ hearing.heardAt < $0.heardAt }) ?? true { firstTexts[hash] = (text, hearing.region, hearing.heardAt) }
                case .trace(let trace):
                    if firstTraces[hash].map({ hearing.heardAt < $0.heardAt }) ?? true { firstTraces[hash] = (trace, hearing.region, hearing.heardAt) }
                }
            }

            observations.regions.append(hearing.region)
            observations.observerKeys.append(ByteBuffer(bytes: hearing.observerKey))
            observations.packetHashes.append(ByteBuffer(bytes: packetHash))
            observations.logicalHashes.append(hearing.decoded?.packetHash)
            observations.payloadTypes.append(hearing.decoded.map { Int16($0.payloadType) })
            observations.sourceKeys.append(source.map { ByteBuffer(bytes: $0) })
            observations.heardAt.append(hearing.heardAt)
            observations.directions.append(hearing.direction.rawValue)
            observations.snrs.append(hearing.snr)
            observations.rssis.append(hearing.rssi.map { Int32($0) })
            observations.paths.append(hearing.decoded.map { ByteBuffer(bytes: $0.path) })
        }

        for entry in distinctPackets.values.sorted(by: { $0.hash.lexicographicallyPrecedes($1.hash) }) {
            packets.hashes.append(ByteBuffer(bytes: entry.hash))
            packets.raws.append(ByteBuffer(bytes: entry.hearing.raw))
            packets.lengths.append(Int32(entry.hearing.raw.count))
            packets.payloadTypes.append(entry.hearing.decoded.map { Int16($0.payloadType) })
            packets.routes.append(entry.hearing.decoded.map { Int16($0.routeType) })
            packets.logicalHashes.append(entry.hearing.decoded?.packetHash)
            packets.firstSeen.append(entry.first)
            packets.lastSeen.append(entry.last)
        }
        for (key, fold) in latestAdverts.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            nodes.keys.append(ByteBuffer(bytes: key))
            nodes.names.append(fold.name)
            nodes.kinds.append(fold.latest.kind.rawValue)
            nodes.latitudes.append(fold.position?.latitude)
            nodes.longitudes.append(fold.position?.longitude)
            nodes.positionAt.append(fold.position?.at)
            nodes.firstSeen.append(fold.firstSeen)
            nodes.lastSeen.append(fold.lastSeen)
            nodes.lastAdvert.append(fold.latest.advertisedAt)
        }
        for (key, entry) in firstAdverts.sorted(by: { $0.key < $1.key }) {
            adverts.nodeKeys.append(ByteBuffer(bytes: key.node))
            adverts.advertisedAt.append(key.at)
            adverts.names.append(entry.advert.name)
            adverts.kinds.append(entry.advert.kind.rawValue)
            adverts.latitudes.append(entry.advert.latitude)
            adverts.longitudes.append(entry.advert.longitude)
            adverts.logicalHashes.append(entry.hash)
            adverts.heardAt.append(entry.heardAt)
        }
        for (hash, entry) in firstTexts.sorted(by: { $0.key < $1.key }) {
            channelMessages.logicalHashes.append(hash)
            channelMessages.regions.append(entry.region)
            channelMessages.channelNames.append(entry.text.channelName)
            channelMessages.channelHashes.append(Int16(entry.text.channelHash))
            channelMessages.senders.append(entry.text.sender)
            channelMessages.texts.append(entry.text.text)
            channelMessages.sentAt.append(entry.text.sentAt)
            channelMessages.heardAt.append(entry.heardAt)
        }
        for (hash, entry) in firstTraces.sorted(by: { $0.key < $1.key }) {
            traces.logicalHashes.append(hash)
            traces.regions.append(entry.region)
            traces.tags.append(Int64(entry.trace.tag))
            traces.hops.append(ByteBuffer(bytes: entry.trace.hops))
            traces.hopSNRs.append("{" + entry.trace.hopSNRs.map { "\($0)" }.joined(separator: ",") + "}")
            traces.heardAt.append(entry.heardAt)
        }
    }

    private mutating func addRejected(_ messages: [RejectedMessage]) throws(RegionStoreError) {
        for (index, message) in messages.enumerated() {
            try check(text: message.topic, "rejected message \(index + 1): the topic")
            try check(text: message.reason, "rejected message \(index + 1): the reason")
            try check(time: message.receivedAt, "rejected message \(index + 1): the time received")
            rejected.topics.append(message.topic)
            rejected.payloads.append(ByteBuffer(bytes: message.payload))
            rejected.reasons.append(message.reason)
            rejected.receivedAt.append(message.receivedAt)
        }
    }

    private func check(_ decoded: DecodedPacket, _ at: String) throws(RegionStoreError) {
        let hex = decoded.packetHash.utf8
        guard hex.count == 16, hex.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }) else {
            throw .badBatch(reason: "\(at): the packet hash \"\(decoded.packetHash)\" is not 16 upper-case hex characters")
        }
        for fact in decoded.facts {
            switch fact {
            case .advert(let advert):
                try check(key: advert.key, "\(at): the advert's node key")
                try check(text: advert.name, "\(at): the advert's name")
                try check(time: advert.advertisedAt, "\(at): the advert's time")
            case .channelText(let text):
                try check(text: text.channelName, "\(at): the channel name")
                try check(text: text.sender, "\(at): the sender")
                try check(text: text.text, "\(at): the channel text")
                try check(time: text.sentAt, "\(at): the channel text's time")
            case .trace(let trace):
                guard trace.hopSNRs.allSatisfy(\.isFinite) else { throw .badBatch(reason: "\(at): a trace hop SNR is not a finite number") }
            }
        }
    }

    private func check(key: [UInt8], _ what: String) throws(RegionStoreError) {
        guard key.count == 32 else { throw .badBatch(reason: "\(what) is \(key.count) bytes long, not 32") }
    }

    /// Years 1 to 9999: within what timestamptz holds and what postgres-nio can encode (it
    /// traps on a time past Int64 microseconds); a node's clock can say anything.
    private func check(time: Date, _ what: String) throws(RegionStoreError) {
        let seconds = time.timeIntervalSince1970
        guard seconds >= -62_135_596_800, seconds < 253_402_300_800 else {
            throw .badBatch(reason: "\(what) (\(seconds) s since 1970) is outside the years 1 to 9999")
        }
    }

    /// PostgreSQL text cannot hold NUL.
    private func check(text: String?, _ what: String) throws(RegionStoreError) {
        guard let text, text.utf8.contains(0) else { return }
        throw .badBatch(reason: "\(what) contains a NUL character")
    }

    private static func isJSON(_ text: String) -> Bool {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            return true
        } catch {
            return false
        }
    }

    static func day(of date: Date) -> Int { Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }
}

/// One node's adverts in a batch: the latest for name and kind, the latest with a position for
/// the position, and the span of times they were heard.
private struct NodeFold {
    var latest: NodeAdvert
    var name: String?
    var position: (latitude: Double, longitude: Double, at: Date)?
    var firstSeen: Date
    var lastSeen: Date

    init(advert: NodeAdvert, heardAt: Date) {
        latest = advert
        firstSeen = heardAt
        lastSeen = heardAt
    }

    mutating func add(_ advert: NodeAdvert, heardAt: Date) {
        firstSeen = min(firstSeen, heardAt)
        lastSeen = max(lastSeen, heardAt)
        if advert.advertisedAt >= latest.advertisedAt { latest = advert }
        if let name = advert.name, advert.advertisedAt >= latest.advertisedAt || self.name == nil { self.name = name }
        if let latitude = advert.latitude, let longitude = advert.longitude, advert.advertisedAt >= (position?.at ?? .distantPast) {
            position = (latitude, longitude, advert.advertisedAt)
        }
    }
}

private struct AdvertKey: Hashable, Comparable {
    var node: [UInt8]
    var at: Date

    static func < (a: Self, b: Self) -> Bool { a.node == b.node ? a.at < b.at : a.node.lexicographicallyPrecedes(b.node) }
}
