import Foundation
import MeshportTestSupport
import GRDB
import MeshCodec
import Synchronization
import Testing

@testable import MeshStore

/// A store on a fresh file with a fixed clock (1,760,000,000 s, moved on by `tick`).
final class TestStore: Sendable {
    let dir = TempDir()
    let store: MeshStore
    let clock: WallClock

    init(limits: StoreLimits = .standard, durability: Durability = .normal) throws {
        let clock = WallClock()
        self.clock = clock
        var options = StoreOptions(durability: durability, limits: limits, now: { clock.now })
        // Coalesced samples wait for disconnect or close here, however slow a loaded machine is.
        (options.coalesceIdle, options.coalesceCeiling) = (.seconds(3600), .seconds(3600))
        store = try MeshStore.open(at: dir.path(), options: options)
    }

    var reader: StoreReader { store.reader }
    var writer: StoreWriter { store.writer }
}

/// A settable wall clock for createdAt/updatedAt.
final class WallClock: Sendable {
    private let millis = Mutex<Int64>(1_760_000_000_000)
    var now: Date { Date(storeMillis: millis.withLock { $0 }) }
    func advance(seconds: Double) { millis.withLock { $0 += Int64(seconds * 1000) } }
}

enum Fixture {
    static func key(_ byte: UInt8, last: UInt8? = nil) -> PublicKey {
        var b = [UInt8](repeating: byte, count: 32)
        if let last { b[31] = last }
        return PublicKey(b)!
    }

    static func key(hex: String) -> PublicKey { PublicKey(hex: hex)! }

    static func radio(_ byte: UInt8 = 0xA0, name: String = "Radio") -> SelfInfo {
        SelfInfo(txPower: 20, maxTxPower: 22, publicKey: key(byte),
                 radio: RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5), name: name)
    }

    static func contact(_ key: PublicKey, name: String, type: NodeType = .chat, lastmod: UInt32 = 100) -> Contact {
        Contact(publicKey: key, type: type, name: name, lastAdvert: lastmod, lastModified: lastmod)
    }

    static let t0 = Date(timeIntervalSince1970: 1_760_000_000)

    static func dm(from key: PublicKey, _ text: String, at seconds: Double = 0, ts: UInt32 = 1_000) -> IncomingMessage {
        .direct(ContactMessage(snrX4: 8, senderPrefix: key.prefix(6), pathLength: .none, senderTimestamp: ts, text: text),
                receivedAt: t0.addingTimeInterval(seconds))
    }

    static func channel(_ index: UInt8, _ text: String, at seconds: Double = 0, ts: UInt32 = 1_000) -> IncomingMessage {
        .channel(ChannelMessage(channelIndex: index, pathLength: PathLength(hops: 2)!, senderTimestamp: ts, text: text),
                 receivedAt: t0.addingTimeInterval(seconds))
    }

    /// A fixture database of an earlier schema, loaded from its SQL dump into `path`.
    static func load(_ name: String, into path: String) throws {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "sql") else {
            throw StoreError.notFound(what: "fixture \(name).sql")
        }
        let sql = try String(contentsOf: url, encoding: .utf8)
        var config = Configuration()
        config.foreignKeysEnabled = false  // the dump creates tables in name order
        let queue = try DatabaseQueue(path: path, configuration: config)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try queue.close()
    }
}

/// A clock the test moves by hand: sleepers wake when `advance` passes their deadline, or
/// when their task is cancelled.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
    }

    private let state = Mutex(State())
    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { s -> Bool in
                    if deadline <= s.now || Task.isCancelled { return true }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: c))
                    return false
                }
                if ready { c.resume() }
            }
        } onCancel: {
            resume { $0.id == id }
        }
        try Task.checkCancellation()
    }

    func advance(by d: Duration) {
        let now = state.withLock { s -> Instant in
            s.now = s.now.advanced(by: d)
            return s.now
        }
        resume { $0.deadline <= now }
    }

    private func resume(where match: (Sleeper) -> Bool) {
        let due = state.withLock { s -> [Sleeper] in
            let due = s.sleepers.filter(match)
            s.sleepers.removeAll(where: match)
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}

extension Array where Element == SearchHit {
    var texts: [String] { map(\.message.text) }
}
