import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import MeshTransport
import MeshportTestSupport
import Synchronization

/// A simulated radio, a store on a fresh file, and a client linking them in-process; each
/// reconnect makes a new link to the same radio, as a real driver opens the device again.
final class ClientHarness: Sendable {
    static let now: UInt32 = 1_790_000_000
    let dir = TempDir()
    let radio: SimRadio
    let clock: ManualSimClock
    let store: MeshStore
    let links = Links()

    init(state: SimRadioState = DefaultMesh.state(seed: 8)) throws {
        clock = ManualSimClock()
        radio = SimRadio(state: state, clock: clock)
        store = try MeshStore.open(at: dir.path(), options: StoreOptions(durability: .normal))
    }

    /// A client whose links may be cut by `loss` (nil: never), or carried by what `wrap` makes.
    func client(reconnect: ReconnectPolicy = ReconnectPolicy(attempts: 20, firstDelay: .milliseconds(1), maxDelay: .milliseconds(20)),
                loss: LinkLoss? = nil, commandTimeout: Duration = inProcessCommandTimeout,
                wrap: (@Sendable (SimTransport) -> any Transport)? = nil) throws -> MeshClient {
        let url = try TransportURL("sim://radio")
        let session = RadioSession(url: url, clientName: "client-test", commandTimeout: commandTimeout, reconnect: reconnect) { [radio, links] in
            let link = try SimTransport(radio: radio)
            links.list.withLock { $0.append(link) }
            if let wrap { return wrap(link) }
            return loss.map { LossyLink(link, loss: $0) } ?? link
        }
        return MeshClient(session: session, store: store, now: { Date(timeIntervalSince1970: Double(Self.now)) })
    }

    /// Runs the radio's clock about 40 times real time, so remote nodes answer in tens of
    /// milliseconds; cancel the task to stop.
    func pump() -> Task<Void, Never> {
        let (radio, clock) = (radio, clock)
        return Task.detached {
            while !Task.isCancelled {
                clock.advance(by: .milliseconds(200))
                await radio.tick()
                do { try await Task.sleep(for: .milliseconds(5)) } catch { return }
            }
        }
    }

    /// Cuts the newest link as a radio going out of range does.
    func loseLink() async {
        if let link = links.list.withLock({ $0.last }) { await link.lose("out of range") }
    }

    var radioID: RadioID { get async { RadioID(publicKey: await radio.state.publicKey) } }
}

/// Every link made so far, newest last.
final class Links: Sendable {
    let list = Mutex<[SimTransport]>([])
}

/// Where links fail: each link counts the frames it sends and fails at the frame `plan`
/// picks for it, before the radio sees that frame or right after its answer.
final class LinkLoss: Sendable {
    enum Moment: Sendable { case beforeRadio, afterAnswer }
    private let plan: Mutex<(rng: SplitMix64, remaining: Int)>
    let maxFrame: Int

    /// `losses` links fail, each within its first `maxFrame` frames, drawn from `seed`.
    init(seed: UInt64, losses: Int, maxFrame: Int) {
        plan = Mutex((SplitMix64(seed: seed), losses))
        self.maxFrame = maxFrame
    }

    /// For a new link: the frame (1-based) at which it fails and how, or nil.
    func next() -> (frame: Int, moment: Moment)? {
        plan.withLock { p in
            guard p.remaining > 0 else { return nil }
            p.remaining -= 1
            let frame = Int(p.rng.next() % UInt64(maxFrame)) + 1
            return (frame, p.rng.next() % 2 == 0 ? .beforeRadio : .afterAnswer)
        }
    }
}

/// A link that fails at one frame, then stays down.
final class LossyLink: WrappingLink, @unchecked Sendable {
    let inner: SimTransport
    private let failAt: (frame: Int, moment: LinkLoss.Moment)?
    private let sent = Mutex(0)

    init(_ inner: SimTransport, loss: LinkLoss) {
        self.inner = inner
        failAt = loss.next()
    }


    func send(_ frame: [UInt8]) async throws {
        let n = sent.withLock { $0 += 1; return $0 }
        guard let failAt, n == failAt.frame else { return try await inner.send(frame) }
        if failAt.moment == .afterAnswer { try await inner.send(frame) }
        await inner.lose("injected loss at frame \(n)")
        if failAt.moment == .beforeRadio { throw TransportError.linkLost(url.text, reason: "injected loss at frame \(n)") }
    }
}

/// The first event of `stream` that `match` accepts (nil if the stream ends first).
func firstEvent<T: Sendable>(_ stream: AsyncStream<ClientEvent>, _ match: (ClientEvent) -> T?) async -> T? {
    for await event in stream { if let v = match(event) { return v } }
    return nil
}
