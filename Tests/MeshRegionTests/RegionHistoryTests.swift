import Foundation
import MeshportTestSupport
import Testing

@testable import MeshRegion

/// The read side (RegionHistory) against what the store wrote, in a real PostgreSQL.
@Suite(.timeLimit(.minutes(2))) struct RegionHistoryTests {
    /// Three observers hear node 7's advert directly (SNR 7.5, 6.5, 5.5); observers 1 and 2 hear
    /// a channel text through a repeater.
    static func batch() -> RegionBatch {
        let now = Sample.time()
        let advert = Sample.advertPacket(node: 7, name: "Hilltop", latitude: 52.1, longitude: 4.9, advertisedAt: now)
        let text = Sample.textPacket("hello region", sender: "Ann", sentAt: now.addingTimeInterval(5))
        return RegionBatch(
            observers: [1, 2, 3].map { Sample.observer($0, at: now) },
            hearings: Sample.hearings(advert, by: [1, 2, 3], at: now) + Sample.hearings(text, by: [1, 2], at: now.addingTimeInterval(10)))
    }

    static func history(_ database: RegionDatabase) throws -> RegionHistory {
        try RegionHistory(url: database.server.url(database: database.name))
    }

    @Test("summary, nodes with their best observer, links, observers and hours follow what was written")
    func readsWhatWasWritten() async throws {
        let database = try await RegionDatabase.make()
        try await database.store.write(Self.batch())
        let history = try Self.history(database)

        let summary = try await history.summary()
        #expect(summary.observers == 3 && summary.nodes == 1 && summary.packets == 2 && summary.observations == 5, "\(summary)")

        let nodes = try await history.nodes(before: nil, limit: 10)
        let node = try #require(nodes.items.first)
        #expect(node.key == Sample.key(7) && node.name == "Hilltop" && node.latitude == 52.1 && node.longitude == 4.9)
        #expect(node.best?.observer == Sample.key(1) && node.best?.snr == 7.5 && node.best?.observerName == "gateway-1", "\(String(describing: node.best))")
        #expect(nodes.older == nil)

        // Only the advert was heard directly: three lines, none for the relayed text.
        let links = try await history.links(hours: 24 * 7, limit: 100)
        #expect(Set(links.map(\.observer)) == Set([1, 2, 3].map(Sample.key)) && links.allSatisfy { $0.node == Sample.key(7) && $0.hearings == 1 })
        let observers = try await history.observers()
        #expect(observers.map(\.name) == ["gateway-1", "gateway-2", "gateway-3"] && observers.allSatisfy { $0.nodesHeard == 1 })

        let observations = try await history.observations(of: Sample.key(7), before: nil, limit: 10)
        #expect(observations.items.map(\.observer) == [3, 2, 1].map(Sample.key), "newest first")
        #expect(observations.items.allSatisfy { $0.path.isEmpty && $0.payloadType == 4 })

        let messages = try await history.channelMessages(channel: "Public", before: nil, limit: 10)
        #expect(messages.items.map(\.text) == ["hello region"] && messages.items.first?.sender == "Ann")
        #expect(try await history.channelMessages(channel: "Other", before: nil, limit: 10).items.isEmpty)

        let hours = try await history.hours(24)
        #expect(hours.map(\.observations).reduce(0, +) == 5 && hours.map(\.packets).reduce(0, +) == 2, "\(hours)")
    }

    @Test("a batch written again changes no counts, links or hours")
    func rewritingChangesNothing() async throws {
        let database = try await RegionDatabase.make()
        try await database.store.write(Self.batch())
        try await database.store.write(Self.batch())
        let history = try Self.history(database)
        #expect(try await history.summary().observations == 5)
        #expect(try await history.links(hours: 24 * 7, limit: 100).allSatisfy { $0.hearings == 1 })
        let hours = try await history.hours(24)
        #expect(hours.map(\.observations).reduce(0, +) == 5 && hours.map(\.packets).reduce(0, +) == 2, "\(hours)")
    }

    @Test("pages follow one another with the cursor, without gaps or repeats, and filter by type")
    func pagesFollowOneAnother() async throws {
        let database = try await RegionDatabase.make()
        try await database.store.write(Self.batch())
        let history = try Self.history(database)

        let first = try await history.packets(type: nil, before: nil, limit: 1)
        let cursor = try #require(first.older)
        let second = try await history.packets(type: nil, before: cursor, limit: 1)
        #expect(first.items.count == 1 && second.items.count == 1 && first.items[0].hash != second.items[0].hash)
        #expect(first.items[0].payloadType == 5 && first.items[0].observers == 2, "the text was heard last: \(first.items)")
        #expect(second.items[0].observations == 3 && second.items[0].observers == 3)
        let third = try await history.packets(type: nil, before: second.older, limit: 1)
        #expect(third.items.isEmpty && third.older == nil)
        #expect(try await history.packets(type: 4, before: nil, limit: 10).items.map(\.payloadType) == [4])

        // A cursor survives its text form.
        #expect(try RegionCursor(encoded: cursor.encoded) == cursor)
        #expect(throws: RegionCursor.Invalid.self) { try RegionCursor(encoded: "not-a-cursor") }
    }

    @Test("node pages follow one another by last heard, ties in key order, without gaps or repeats")
    func nodePagesFollowOneAnother() async throws {
        let database = try await RegionDatabase.make()
        let now = Sample.time()
        // Nodes 7 and 8 were last heard at the same time, node 9 a minute later.
        let adverts = [(7, now), (8, now), (9, now.addingTimeInterval(60))].flatMap { node, at in
            Sample.hearings(Sample.advertPacket(node: UInt8(node), name: "node-\(node)", latitude: nil, longitude: nil, advertisedAt: at), by: [1], at: at)
        }
        try await database.store.write(RegionBatch(observers: [Sample.observer(1, at: now)], hearings: adverts))
        let history = try Self.history(database)

        var keys: [[UInt8]] = []
        var before: RegionCursor?
        for _ in 0..<3 {
            let page = try await history.nodes(before: before, limit: 1)
            keys += page.items.map(\.key)
            let older: RegionCursor = try #require(page.older, "a full page has an older one")
            before = older
        }
        #expect(keys == [9, 7, 8].map(Sample.key))
        let last = try await history.nodes(before: before, limit: 1)
        #expect(last.items.isEmpty && last.older == nil)
    }

    @Test("a database that is away is a typed error naming it")
    func awayIsTyped() async throws {
        let database = try await RegionDatabase.make()
        let history = try Self.history(database)
        try await database.server.stop()
        await #expect {
            _ = try await history.summary()
        } throws: { error in
            guard case .unavailable(let server, _) = error as? RegionHistoryError else { return false }
            return server.contains("127.0.0.1")
        }
    }

    @Test("a database that does not answer (frozen with SIGSTOP) fails a read within the answer limit, on an idle connection and on a new one; thawed, reads work")
    func frozenIsTypedWithinTheLimit() async throws {
        let database = try await RegionDatabase.make()
        try await database.store.write(Self.batch())
        let history = try RegionHistory(url: database.server.url(database: database.name), answerLimit: .seconds(2))
        _ = try await history.summary()   // leaves an idle connection
        database.server.freeze()
        defer { database.server.thaw() }
        // The idle connection is closed when it does not answer; the second read connects anew.
        for _ in 1...2 {
            await #expect {
                _ = try await history.summary()
            } throws: { error in
                guard case .unavailable(let server, let reason) = error as? RegionHistoryError else { return false }
                return server == "127.0.0.1:\(database.server.port)" && reason == "no answer within 2.0 seconds"
            }
        }
        database.server.thaw()
        #expect(try await history.summary().observations == 5)
    }
}
