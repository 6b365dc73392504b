import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// The region history read by `meshport serve --history` (Docs/region.md, "Reading"): one
/// method per route, each on a connection of a small pool (`RegionConnections`). Every failure is
/// a `RegionHistoryError`; a database that is away fails the read at once rather than keeping
/// the caller waiting, and one that does not answer within `answerLimit` fails it then
/// (RegionAnswerLimit.swift).
public final class RegionHistory: Sendable {
    public let url: RegionDatabaseURL
    private let connections: RegionConnections
    private let answerLimit: Duration

    /// Reads the TLS files `text` names now; connects at the first read.
    public init(url text: String, keepIdle: Int = 8, answerLimit: Duration = .seconds(30)) throws(RegionHistoryError) {
        self.answerLimit = answerLimit
        let connector: RegionConnector
        do {
            connector = try RegionConnector(url: try RegionDatabaseURL(text))
        } catch {
            guard case .invalidURL(let url, let reason) = error else { throw .invalidURL(url: RegionDatabaseURL.redacted(text), reason: "\(error)") }
            throw .invalidURL(url: url, reason: reason)
        }
        url = connector.url
        connections = RegionConnections(connector: connector, keepIdle: keepIdle)
    }

    /// Closes the idle connections; reads after this connect again.
    public func close() async { await connections.closeIdle() }

    public func summary() async throws(RegionHistoryError) -> RegionSummary {
        try await read(RegionQueries.summary()) { row throws in
            RegionSummary(observers: try row.count(), nodes: try row.count(), packets: try row.count(), observations: try row.count(),
                          lastHeard: try row.next(Date?.self))
        }.first ?? RegionSummary(observers: 0, nodes: 0, packets: 0, observations: 0, lastHeard: nil)
    }

    public func nodes(before: RegionCursor?, limit: Int) async throws(RegionHistoryError) -> RegionPage<RegionNode> {
        let rows = try await read(RegionQueries.nodes(before: before, limit: limit)) { row throws in
            var node = RegionNode(key: try row.bytes(), name: try row.next(String?.self), kind: try row.next(String.self),
                                  latitude: try row.next(Double?.self), longitude: try row.next(Double?.self),
                                  firstSeen: try row.next(Date.self), lastSeen: try row.next(Date.self), best: nil)
            let observer = try row.optionalBytes(), observerName = try row.next(String?.self)
            let snr = try row.next(Float?.self), heard = try row.next(Date?.self)
            if let observer, let heard {
                node.best = RegionNode.Best(observer: observer, observerName: observerName, snr: snr.map(Double.init), lastHeard: heard)
            }
            return node
        }
        return RegionPage(items: rows, older: rows.count == limit ? rows.last.map { RegionCursor(time: $0.lastSeen, key: $0.key) } : nil)
    }

    public func observations(of node: [UInt8], before: RegionCursor?, limit: Int) async throws(RegionHistoryError) -> RegionPage<RegionObservation> {
        let rows = try await read(RegionQueries.observations(of: node, before: before, limit: limit)) { row throws in
            RegionObservation(id: try row.next(Int64.self), observer: try row.bytes(), observerName: try row.next(String?.self),
                              heardAt: try row.next(Date.self), snr: try row.next(Float?.self).map(Double.init),
                              rssi: try row.next(Int32?.self).map(Int.init), path: try row.optionalBytes() ?? [],
                              packetHash: try row.next(String?.self), payloadType: try row.next(Int16?.self).map { UInt8(truncatingIfNeeded: $0) },
                              direction: try row.next(String.self))
        }
        return RegionPage(items: rows, older: rows.count == limit ? rows.last.map { RegionCursor(time: $0.heardAt, id: $0.id) } : nil)
    }

    public func packets(type: UInt8?, before: RegionCursor?, limit: Int) async throws(RegionHistoryError) -> RegionPage<RegionPacket> {
        let rows = try await read(RegionQueries.packets(type: type.map(Int16.init), before: before, limit: limit)) { row throws in
            RegionPacket(hash: try row.next(String.self), payloadType: UInt8(truncatingIfNeeded: try row.next(Int16.self)),
                         firstSeen: try row.next(Date.self), lastSeen: try row.next(Date.self), observations: Int(try row.next(Int32.self)),
                         observers: try row.count(), length: try row.next(Int32?.self).map(Int.init))
        }
        return RegionPage(items: rows, older: rows.count == limit ? rows.last.map { RegionCursor(time: $0.lastSeen, hash: $0.hash) } : nil)
    }

    public func channelMessages(channel: String?, before: RegionCursor?, limit: Int) async throws(RegionHistoryError) -> RegionPage<RegionChannelMessage> {
        let rows = try await read(RegionQueries.channelMessages(channel: channel, before: before, limit: limit)) { row throws in
            RegionChannelMessage(packetHash: try row.next(String.self), channel: try row.next(String.self), sender: try row.next(String?.self),
                                 text: try row.next(String.self), sentAt: try row.next(Date.self), heardAt: try row.next(Date.self))
        }
        return RegionPage(items: rows, older: rows.count == limit ? rows.last.map { RegionCursor(time: $0.heardAt, hash: $0.packetHash) } : nil)
    }

    public func observers() async throws(RegionHistoryError) -> [RegionObserver] {
        try await read(RegionQueries.observers()) { row throws in
            RegionObserver(key: try row.bytes(), region: try row.next(String.self), name: try row.next(String.self),
                           model: try row.next(String?.self), firmware: try row.next(String?.self), online: try row.next(Bool.self),
                           firstSeen: try row.next(Date.self), lastSeen: try row.next(Date.self), nodesHeard: try row.count())
        }
    }

    public func links(hours: Int, limit: Int) async throws(RegionHistoryError) -> [RegionLink] {
        try await read(RegionQueries.links(hours: hours, limit: limit)) { row throws in
            RegionLink(observer: try row.bytes(), node: try row.bytes(), hearings: try row.count(), bestSNR: try row.next(Float?.self).map(Double.init),
                       lastSNR: try row.next(Float?.self).map(Double.init), lastHeard: try row.next(Date.self))
        }
    }

    public func hours(_ hours: Int) async throws(RegionHistoryError) -> [RegionHour] {
        try await read(RegionQueries.hours(hours)) { row throws in
            RegionHour(hour: try row.next(Date.self), observations: try row.count(), packets: try row.count())
        }
    }

    private func read<Item: Sendable>(_ query: PostgresQuery,
                                      _ make: @escaping @Sendable (inout RegionRowReader) throws -> Item) async throws(RegionHistoryError) -> [Item] {
        let (connections, server) = (connections, url.server)
        let current = InUse()
        do {
            return try await RegionAnswerLimit.run(answerLimit, expired: { current.close() }) {
                let connection = try await connections.take()
                current.set(connection)
                do {
                    var items: [Item] = []
                    for try await row in try await connection.query(query, logger: RegionConnections.logger) {
                        var reader = RegionRowReader(row)
                        items.append(try make(&reader))
                    }
                    await connections.give(connection)
                    return items
                } catch {
                    await connections.discard(connection)
                    throw RegionHistoryError.from(error, server: server)
                }
            }
        } catch is RegionAnswerLimit.Expired {
            throw .unavailable(server: server, reason: "no answer within \(answerLimit)")
        } catch let error as RegionHistoryError {
            throw error
        } catch {
            throw RegionHistoryError.from(error, server: server)
        }
    }

    /// The connection a read is using, closed when the read runs out of time.
    private final class InUse: Sendable {
        private let connection = Mutex<PostgresConnection?>(nil)

        func set(_ connection: PostgresConnection) { self.connection.withLock { $0 = connection } }

        func close() {
            if let connection = connection.withLock({ $0 }) { RegionStore.closeLater(connection) }
        }
    }
}
