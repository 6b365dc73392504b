import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import MeshTransport
import MeshportTestSupport
import Synchronization

/// The simulated radio's clock, running `speed` times faster than real time: the mesh's
/// airtimes and delays shrink by that factor, and a `RetryPolicy` with `timeoutScale`
/// 1/speed shrinks its waits alike, so tests see the firmware's timing ratios without sleeping.
final class FastSimClock: SimClock {
    private let start = ContinuousClock.now
    private let offset = Mutex(Duration.zero)
    let speed: Int
    init(speed: Int) { self.speed = speed }
    var elapsed: Duration { offset.withLock { scaled + $0 } }
    private var scaled: Duration { (ContinuousClock.now - start) * speed }

    /// Moves the mesh's time on to `target` at once (never back).
    func jump(to target: Duration) {
        offset.withLock { $0 += max(.zero, target - (scaled + $0)) }
    }
}

/// A Messenger on a radio simulated in-process, with a real SQLite store in a temporary
/// folder holding the radio, its contacts and channel slots.
final class MessagingRig: Sendable {
    static let speed = 20
    /// Waits four times the firmware's ratio to the mesh's delays: an ACK that must beat its
    /// wait travels on the test process's shared threads, which under load (32 tests beside two
    /// busy loops) were held longer than a wait scaled by 1/speed alone, about 0.1-0.2 s.
    static let policy = RetryPolicy(timeoutScale: 4 / Double(speed))

    /// Two zero-hop repeaters (they echo floods and pass on direct packets); Ann behind east
    /// with a known path; Bob likewise but direct packets never reach him; Cy's ACKs take 10
    /// minutes, unless a test moves the clock on.
    static let scenario: Scenario = {
        var east = NodeSpec(id: "east")
        east.type = "repeater"
        var west = NodeSpec(id: "west")
        west.type = "repeater"
        func chat(_ id: String, _ name: String) -> NodeSpec {
            var n = NodeSpec(id: id)
            n.name = name
            n.via = ["east"]
            n.knownPath = true
            return n
        }
        var bob = chat("bob", "Bob")
        bob.dropsDirect = true
        var cy = chat("cy", "Cy")
        cy.ackDelayMs = 600_000
        return Scenario(seed: 31, nodes: [east, west, chat("ann", "Ann"), bob, cy, chat("dee", "Dee")])
    }()

    let dir = TempDir()
    let clock = FastSimClock(speed: MessagingRig.speed)
    let sim: SimRadio
    let spy: WatchedLink
    let session: RadioSession
    let store: MeshStore
    let context: ServiceContext
    let messenger: Messenger
    private let ticker: Task<Void, Never>

    var radio: RadioID { context.radio }
    var selfInfo: SelfInfo { context.selfInfo }

    init(policy: RetryPolicy = MessagingRig.policy) async throws {
        let sim = SimRadio(state: try Self.scenario.state(), clock: clock)
        self.sim = sim
        // The mesh's scheduled events (ACKs, echoes) are delivered as the fast clock reaches them.
        ticker = Task {
            while !Task.isCancelled {
                await sim.tick()
                do { try await Task.sleep(for: .milliseconds(2)) } catch { return }
            }
        }
        spy = WatchedLink(try SimTransport(radio: sim))
        session = RadioSession(transport: spy, clientName: "messaging-test", commandTimeout: inProcessCommandTimeout)
        let snapshot = try await session.connect(now: { 1_790_000_000 })
        store = try MeshStore.open(at: dir.path())
        let radio = RadioID(publicKey: snapshot.selfInfo.publicKey)
        try await store.writer.register(snapshot.selfInfo)
        try await store.writer.saveContacts(radio, snapshot.contacts)
        try await store.writer.saveChannels(radio, snapshot.channels)
        context = ServiceContext(session: session, store: store, radio: radio, selfInfo: snapshot.selfInfo, events: EventHub())
        messenger = Messenger(context: context, policy: policy)
    }

    deinit { ticker.cancel() }

    func key(_ name: String) async -> PublicKey {
        await sim.state.nodes.values.first { $0.name == name }!.publicKey
    }

    func stored(_ id: Int64) throws -> StoredMessage? { try store.reader.message(radio, id: id) }
    func messageCount() throws -> Int { try store.reader.rowCounts(radio)["messages"] ?? -1 }

    /// The events of `events` up to the first one after which `done` holds for all of them;
    /// what came so far when `limit` of real time passes first.
    static func collect(_ events: AsyncStream<ClientEvent>, within limit: Duration = .seconds(20),
                        until done: @escaping @Sendable ([ClientEvent]) -> Bool) async -> [ClientEvent] {
        let seen = Shared<[ClientEvent]>([])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    let all = seen.with { s in
                        s.append(event)
                        return s
                    }
                    if done(all) { return }
                }
            }
            group.addTask {
                do { try await Task.sleep(for: limit) } catch { return }  // cancelled: the events came
            }
            await group.next()
            group.cancelAll()
        }
        return seen.value
    }

    /// The first event `match` accepts, or nil when none comes within `limit`.
    static func first(_ events: AsyncStream<ClientEvent>, within limit: Duration = .seconds(20),
                      where match: @escaping @Sendable (ClientEvent) -> Bool) async -> ClientEvent? {
        await collect(events, within: limit) { $0.last.map(match) ?? false }.last.flatMap { match($0) ? $0 : nil }
    }
}

extension ClientEvent {
    /// The message of a `.messageStatus` event.
    var status: StoredMessage? { if case let .messageStatus(m) = self { m } else { nil } }
}

/// A value tests share between tasks and callbacks.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value { mutex.withLock { $0 } }
    func with<R: Sendable>(_ body: (inout sending Value) throws -> sending R) rethrows -> R { try mutex.withLock(body) }
}
