import Foundation
import Logging
import MeshportTestSupport
import PostgresNIO
import Synchronization

@testable import MeshRegion

/// A test's own PostgreSQL with one migrated database, its store, and an independent
/// connection to check what the store wrote.
struct RegionDatabase {
    let server: PostgresProcess
    let name: String
    let store: RegionStore
    let logged: LogLines

    static func make(migrated: Bool = true, answerLimit: Duration = .seconds(60)) async throws -> RegionDatabase {
        let server = try await PostgresProcess()
        return try await make(on: server, migrated: migrated, answerLimit: answerLimit)
    }

    static func make(on server: PostgresProcess, migrated: Bool = true, answerLimit: Duration = .seconds(60)) async throws -> RegionDatabase {
        let name = "region_\(UInt32.random(in: 0...UInt32.max))"
        let url = try await server.createDatabase(name)
        let logged = LogLines()
        let store = try await RegionStore.connect(url: url, answerLimit: answerLimit, log: { logged.append($0) })
        if migrated { try await store.migrate() }
        return RegionDatabase(server: server, name: name, store: store, logged: logged)
    }

    /// Runs `body` on a connection of its own to the test's database.
    func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let configuration = PostgresConnection.Configuration(host: "127.0.0.1", port: Int(server.port), username: PostgresProcess.user,
                                                             password: nil, database: name, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: quiet)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try await connection.close()
            throw error
        }
    }

    /// The rows of a query's single text or integer column.
    func column<T: PostgresDecodable & Sendable>(_ sql: String, as type: T.Type = T.self) async throws -> [T] {
        try await withConnection { connection in
            var values: [T] = []
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: quiet).decode(T.self) {
                values.append(value)
            }
            return values
        }
    }

    func count(_ table: String, where condition: String = "true") async throws -> Int {
        try await column("SELECT count(*)::bigint FROM \(table) WHERE \(condition)", as: Int.self).first ?? -1
    }

    /// Every region table's rows as one text per table (observation ids left out: they number
    /// rows in the order they came), to compare two states.
    func snapshot() async throws -> [String: String] {
        var tables: [String: String] = [:]
        for table in ["observers", "packets", "logical_packets", "observations", "nodes", "node_adverts", "channel_messages",
                      "trace_events", "rejected_messages"] {
            tables[table] = try await column("""
                SELECT coalesce(string_agg(row, E'\\n' ORDER BY row), '') FROM (SELECT (to_jsonb(t) - 'id')::text AS row FROM \(table) t) r
                """, as: String.self).first
        }
        return tables
    }
}

let quiet = Logger(label: "meshport.region.test", factory: { _ in SwiftLogNoOpLogHandler() })

/// What a store logged.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}


/// Records for tests: keys are 32 copies of one byte.
enum Sample {
    static func key(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 32) }

    /// Noon UTC `daysAgo` days before now, plus `seconds`.
    static func time(daysAgo: Int = 0, seconds: Double = 0) -> Date {
        let today = (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        return Date(timeIntervalSince1970: today - Double(daysAgo) * 86_400 + 43_200 + seconds)
    }

    static func observer(_ byte: UInt8, at time: Date, name: String? = nil, online: Bool = true) -> ObserverReport {
        ObserverReport(key: key(byte), region: "AMS", name: name ?? "gateway-\(byte)", online: online, reportedAt: time, model: "Heltec V3",
                       firmware: "v1.17.1", clientVersion: "meshport/1.0", radio: "869.525,250,11,5",
                       statsJSON: #"{"battery_mv":4100,"uptime_secs":\#(Int(time.timeIntervalSince1970) % 100000)}"#)
    }

    static func advertPacket(node: UInt8, name: String, latitude: Double?, longitude: Double?, advertisedAt: Date) -> (raw: [UInt8], decoded: DecodedPacket) {
        let raw = [0x11, 0x00] + key(node) + Array(name.utf8) + [UInt8(truncatingIfNeeded: Int(advertisedAt.timeIntervalSince1970))]
        let advert = NodeAdvert(key: key(node), name: name, kind: .repeater, latitude: latitude, longitude: longitude, advertisedAt: advertisedAt)
        let hash = String(format: "%016llX", UInt64(node) << 32 | UInt64(UInt32(truncatingIfNeeded: Int(advertisedAt.timeIntervalSince1970))))
        return (raw, DecodedPacket(packetHash: hash, payloadType: 4, routeType: 1, payloadVersion: 0, path: [], facts: [.advert(advert)]))
    }

    static func textPacket(_ text: String, sender: String, sentAt: Date) -> (raw: [UInt8], decoded: DecodedPacket) {
        let raw = [0x15, 0x01, 0xAA] + Array("\(sender): \(text)".utf8)
        let fact = ChannelText(channelName: "Public", channelHash: 0x11, sender: sender, text: text, sentAt: sentAt)
        let hash = String(format: "%016llX", UInt64(raw.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        return (raw, DecodedPacket(packetHash: hash, payloadType: 5, routeType: 1, payloadVersion: 0, path: [0xAA], facts: [.channelText(fact)]))
    }

    /// `packet` heard by each of `observers`, one second apart from `at`.
    static func hearings(_ packet: (raw: [UInt8], decoded: DecodedPacket), by observers: [UInt8], at: Date) -> [Hearing] {
        observers.enumerated().map { index, observer in
            Hearing(observerKey: key(observer), region: "AMS", heardAt: at.addingTimeInterval(Double(index)), direction: .rx,
                    raw: packet.raw, snr: 7.5 - Double(index), rssi: -90 - index, decoded: packet.decoded)
        }
    }
}
