import Foundation
import MeshCodec
@testable import MeshSim
import Testing

/// The flash-kept part of the state: saved after each change, restored into a new radio.
@Suite(.timeLimit(.minutes(1))) struct PersistenceTests {
    final class Saves: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [SimSavedState] = []
        func add(_ s: SimSavedState) { lock.withLock { all.append(s) } }
        var list: [SimSavedState] { lock.withLock { all } }
    }

    @Test func changesAreSavedAndRestored() async throws {
        let clock = ManualSimClock()
        let radio = SimRadio(state: DefaultMesh.state(seed: 8), clock: clock)
        let saves = Saves()
        await radio.persist { saves.add($0) }
        #expect(saves.list.count == 1, "saved once at start")
        _ = await radio.handle(.getDeviceTime)
        clock.advance(by: .seconds(5))
        _ = await radio.handle(.getDeviceTime)
        #expect(saves.list.count == 1, "reads and the clock alone write nothing")
        _ = await radio.handle(.setAdvertName("Kept"))
        _ = await radio.handle(.setChannel(ChannelInfo(index: 2, name: "#ops", secret: ChannelSecret([UInt8](repeating: 3, count: 16))!)))
        _ = await radio.handle(.setOtherParams(OtherParams(manualAddContacts: 1, telemetryModes: TelemetryModes(rawValue: 5))))
        _ = await radio.handle(.removeContact(await radio.state.contacts.contacts[0].publicKey))
        #expect(saves.list.count == 5)
        let last = try #require(saves.list.last)

        // A different seed: everything kept comes from the saved state.
        var fresh = DefaultMesh.state(seed: 99)
        try fresh.restore(last)
        let old = await radio.state
        #expect(fresh.publicKey == old.publicKey && fresh.identity == old.identity && fresh.name == "Kept")
        #expect(fresh.contacts == old.contacts && fresh.channels == old.channels && fresh.prefs == old.prefs)
        #expect(fresh.deviceTime(at: .zero) >= old.deviceTime(at: clock.elapsed), "the clock never goes back")
        #expect(fresh.offlineQueue.count == DefaultMesh.state(seed: 99).offlineQueue.count, "the queue is RAM: not kept")
    }

    @Test func badSavedStatesSayWhere() throws {
        var base = try DefaultMesh.state(seed: 8).saved(at: .zero)
        base.contacts[1] = "zz"
        var s = DefaultMesh.state(seed: 8)
        #expect { try s.restore(base) } throws: { "\($0)" == "contacts[1]: not hex" }
        var small = SimLimits()
        small.maxContacts = 5
        var tiny = DefaultMesh.state(seed: 8, limits: small)
        #expect { try tiny.restore(try DefaultMesh.state(seed: 8).saved(at: .zero)) } throws: { "\($0)".hasPrefix("contacts[5]: more contacts than the table holds") }
        var badKey = try DefaultMesh.state(seed: 8).saved(at: .zero)
        badKey.privateKey = "00"
        #expect { try s.restore(badKey) } throws: { "\($0)".hasPrefix("privateKey: ") }
    }

    @Test func savedStateIsJSON() throws {
        let saved = try DefaultMesh.state(seed: 8).saved(at: .zero)
        let data = try JSONEncoder().encode(saved)
        #expect(try JSONDecoder().decode(SimSavedState.self, from: data) == saved)
    }
}
