import Foundation
import MeshCodec
import MeshportTestSupport
import MeshServices
import MeshSim
import MeshStore
import MeshTransport

/// A connected session on a MeshSim radio in this process, a real store in a temporary
/// folder, and the context services are made with. With `pumping`, the radio's clock runs
/// about 40 times real time so remote nodes answer in tens of milliseconds.
final class ServiceHarness: Sendable {
    static let now: UInt32 = 1_790_000_000

    let dir: TempDir
    let radio: SimRadio
    let clock: ManualSimClock
    let link: WatchedLink
    let session: RadioSession
    let store: MeshStore
    let context: ServiceContext
    let snapshot: RadioSnapshot
    private let pump: Task<Void, Never>?

    /// Runs `body` on a fresh harness and closes it afterwards, also when `body` throws.
    static func with(_ state: SimRadioState = DefaultMesh.state(seed: 8), pumping: Bool = false,
                     _ body: (ServiceHarness) async throws -> Void) async throws {
        let harness = try await make(state, pumping: pumping)
        do {
            try await body(harness)
        } catch {
            await harness.close()
            throw error
        }
        await harness.close()
    }

    private static func make(_ state: SimRadioState, pumping: Bool) async throws -> ServiceHarness {
        let clock = ManualSimClock()
        let radio = SimRadio(state: state, clock: clock)
        let link = WatchedLink(try SimTransport(radio: radio))
        let session = RadioSession(transport: link, clientName: "services-test", commandTimeout: inProcessCommandTimeout)
        let snapshot = try await session.connect(now: { Self.now })
        let dir = TempDir()
        let store = try MeshStore.open(at: dir.path(), options: StoreOptions(durability: .normal))
        try await store.writer.register(snapshot.selfInfo)
        let id = RadioID(publicKey: snapshot.selfInfo.publicKey)
        try await store.writer.saveContacts(id, snapshot.contacts)
        let context = ServiceContext(session: session, store: store, radio: id, selfInfo: snapshot.selfInfo, events: EventHub())
        var pump: Task<Void, Never>?
        if pumping {
            pump = Task.detached {
                while !Task.isCancelled {
                    clock.advance(by: .milliseconds(200))
                    await radio.tick()
                    do { try await Task.sleep(for: .milliseconds(5)) } catch { return }
                }
            }
        }
        return ServiceHarness(radio: radio, clock: clock, link: link, session: session, store: store, context: context,
                              snapshot: snapshot, pump: pump, dir: dir)
    }

    private init(radio: SimRadio, clock: ManualSimClock, link: WatchedLink, session: RadioSession, store: MeshStore,
                 context: ServiceContext, snapshot: RadioSnapshot, pump: Task<Void, Never>?, dir: TempDir) {
        self.dir = dir
        self.radio = radio
        self.clock = clock
        self.link = link
        self.session = session
        self.store = store
        self.context = context
        self.snapshot = snapshot
        self.pump = pump
    }

    func close() async {
        pump?.cancel()
        await session.close()
        do { try await store.close() } catch { print("closing the test store: \(error)") }
    }

    /// The contact named `name` in the default mesh.
    func node(_ name: String) throws -> Contact {
        guard let c = snapshot.contacts.first(where: { $0.name == name }) else { throw HarnessError("no contact named \(name)") }
        return c
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension RemoteTimeouts {
    /// For tests that expect an answer: the harness's radio runs on a clock the pump advances,
    /// which a loaded machine slows, while these limits run on the real clock. Only the tests
    /// about silence use short ones.
    static let patient = RemoteTimeouts(base: .seconds(30), perHop: .seconds(10))
}
