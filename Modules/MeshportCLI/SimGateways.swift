import ArgumentParser
import Foundation
import MeshSim
import MeshSimServe

/// `meshport sim --radios N` (or a scenario's `gateways`): several radios on one simulated
/// air, each served on its own TCP port or pty until SIGINT or SIGTERM.
extension Sim {
    func serveGateways(_ file: Scenario?) async throws {
        let mesh = try file?.gatewayMesh(seed: seed, radios: radios) ?? GatewayMesh.defaultMesh(radios: radios ?? 1, seed: seed ?? 1)
        if file?.gateways != nil, ptyLink != nil || state != nil || stdio {
            throw ValidationError("the scenario's gateways are several radios: --stdio, --state and --pty-link are for one")
        }
        let faults = try Self.activeFaults(scenario: file, overrides: Self.faultOverrides(self.faults), seed: seed)
        let air = SharedAir(mesh)
        let heard = try heardLog.map(HeardLog.init(path:))
        defer { Self.close(heard) }
        if let heard {
            for radio in air.radios { await radio.recordHearings(heard.record) }
        }
        let timers = Task { await air.runTimers() }
        var stops: [() -> Void] = [timers.cancel]
        defer { for stop in stops { stop() } }
        if let faults { StandardStream.error("meshport sim: faults: \(faults)\n") }
        Termination.install()
        let (host, base) = pty ? ("", 0) : try Self.tcpAddress(listen ?? "tcp://127.0.0.1:5000")
        let last = Int(base) + air.radios.count - 1
        if base != 0, last > Int(UInt16.max) {
            throw ValidationError("--listen: \(air.radios.count) radios from port \(base) need ports up to \(last), past \(UInt16.max)")
        }
        for (i, radio) in air.radios.enumerated() {
            let state = await radio.state
            let label = "radio \(i + 1) of \(air.radios.count), \(state.name), key \(state.publicKey.hex)"
            if pty {
                let peer = try PtyPeer(serve: simFrames(radio, faults: faults))
                stops.append { peer.close() }
                Self.announce("serving on \(peer.slavePath) (serial://\(peer.slavePath)) (\(label))")
            } else {
                let peer = try TCPPeer(host: host, port: base == 0 ? 0 : base + UInt16(i), serve: simFrames(radio, faults: faults))
                stops.append { peer.stop() }
                Self.announce("listening on tcp://\(host):\(peer.port) (\(label))")
            }
        }
        let signal = await Termination.wait()
        // The radios stop hearing before the links close, so every hearing the log says was
        // pushed reached its link.
        timers.cancel()
        await timers.value
        StandardStream.error("meshport sim: stopped by \(signal)\n")
    }

    /// Closes the heard log and says when a line could not be written.
    static func close(_ log: HeardLog?) {
        guard let log else { return }
        log.close()
        if let problem = log.problem { StandardStream.error("meshport sim: \(problem)\n") }
    }
}
