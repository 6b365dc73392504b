import MeshCodec
import MeshSimServe
import MeshportTestSupport
@testable import MeshSim
import Testing

/// REBOOT and FACTORY_RESET: the link drops, RAM is lost, flash is kept (reboot) or formatted
/// (factory reset), and the mesh carries on.
@Suite(.timeLimit(.minutes(1))) struct RestartTests {
    private func run(_ s: inout SimRadioState, _ c: Command, at now: Duration = .zero) -> [RadioFrame] { SimHandler.handle(&s, c, now: now) }

    /// The default mesh with its first messages queued, a DM awaiting its ACK and a changed setting.
    private func busyRadio() -> SimRadioState {
        var s = DefaultMesh.state(seed: 4)
        _ = run(&s, .deviceQuery(appTargetVersion: 3))
        _ = run(&s, .setAdvertName("Kept"))
        _ = SimHandler.advance(&s, to: .seconds(20))
        let to = s.contacts.contacts[0].publicKey.prefix()
        _ = run(&s, .sendTextMessage(SendTextMessage(timestamp: 1_800_000_000, recipient: to, text: "before")), at: .seconds(20))
        return s
    }

    @Test func rebootLosesWhatWasInRAMAndKeepsTheFlash() {
        var s = busyRadio()
        let before = s
        #expect(!s.offlineQueue.isEmpty && !s.expectedAcks.isEmpty)
        #expect(run(&s, .reboot, at: .seconds(20)).isEmpty, "the board restarts without answering")
        #expect(s.restarted)
        #expect(s.offlineQueue.isEmpty && s.expectedAcks.isEmpty && s.appTargetVersion == 0 && s.stats == SimStats())
        guard case let .response(.stats(.core(core))) = run(&s, .getStats(.core), at: .seconds(25)).first else { Issue.record("no STATS"); return }
        #expect(core.uptimeSeconds == 5, "uptime counts from the restart")
        #expect(s.publicKey == before.publicKey && s.name == "Kept" && s.contacts == before.contacts && s.channels == before.channels)
        #expect(s.nodes == before.nodes && s.scheduled == before.scheduled, "the mesh goes on")
        // The DM's ACK still arrives on air, but nothing waits for it any more.
        #expect(SimHandler.advance(&s, to: .seconds(60)).filter { if case .push(.sendConfirmed) = $0 { true } else { false } }.isEmpty)
    }

    @Test func factoryResetFormatsTheFlash() {
        var s = busyRadio()
        let before = s
        #expect(run(&s, .factoryReset, at: .seconds(20)) == [.response(.ok(value: nil))])
        #expect(s.publicKey != before.publicKey && s.name == SimIdentity.defaultName(s.publicKey))
        #expect(s.contacts.count == 0 && s.channels.filter { !$0.isEmpty }.map(\.name) == [ChannelSecret.publicChannelName])
        #expect(s.prefs == SimPrefs() && s.radio == before.radio && s.offlineQueue.isEmpty)
        #expect(s.deviceTime(at: .seconds(20)) == before.deviceTime(at: .seconds(20)), "the board's clock runs on")
        #expect(s.nodes == before.nodes)
        var again = busyRadio()
        _ = run(&again, .factoryReset, at: .seconds(20))
        #expect(again.publicKey == s.publicKey, "the new identity follows from the seed")
    }

    @Test func aMistypedConfirmationIsRefused() async {
        let radio = SimRadio(state: busyRadio(), clock: ManualSimClock())
        for bad in [[CommandCode.reboot.rawValue] + Array("rebooX".utf8), [CommandCode.factoryReset.rawValue] + Array("rese".utf8)] {
            #expect(await radio.receive(bad) == SimLinkReply(frames: [[ResponseCode.err.rawValue, 1]]))
        }
        #expect(await radio.state.name == "Kept")
    }

    /// Over TCP: the OK of a factory reset, then the link closes; the app reconnects to a
    /// radio with a new identity.
    @Test func theLinkDropsAndTheAppReconnects() async throws {
        let radio = SimRadio(state: busyRadio(), clock: ManualSimClock())
        let server = try TCPPeer(serve: simFrames(radio))
        defer { server.stop() }
        let old = await radio.state.publicKey
        let app = try AppLink(port: server.port)
        #expect(try await offPool { try app.call(Command.factoryReset.encode()) } == [ResponseCode.ok.rawValue])
        #expect(await offPool { app.closes() }, "the radio restarted")
        #expect(await !radio.isConnected)
        let again = try AppLink(port: server.port)
        let info = try RadioFrame(decoding: try await offPool { try again.call(Command.appStart(AppStart(appName: "after")).encode()) })
        guard case let .response(.selfInfo(selfInfo)) = info else { Issue.record("no SELF_INFO: \(info)"); return }
        let now = await radio.state.publicKey
        #expect(selfInfo.publicKey != old && selfInfo.publicKey == now)
        // A reboot answers nothing before the link closes.
        try again.send([Command.reboot.encode()])
        #expect(await offPool { again.closes() })
    }
}
