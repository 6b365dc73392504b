import ArgumentParser
import Dispatch
import Foundation
import MeshSim
import MeshSimServe
import MeshTransport

/// `meshport sim`: a simulated companion radio (MeshSim) with its default mesh, served over
/// TCP or a pseudo-terminal until SIGINT or SIGTERM, or over stdin/stdout until that link ends;
/// with `--radios` or a scenario's gateways, several radios on one air (SimGateways.swift).
struct Sim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run a simulated companion radio (MeshSim), or several on one air.",
        discussion: """
            Serves one radio over TCP (one client at a time; a new client replaces the old, as the \
            firmware does) or over a pseudo-terminal whose path is printed. The mesh around it \
            follows from --seed. Runs until interrupted.

            --stdio serves it on stdin and stdout instead (the framed companion stream; messages go \
            to stderr), so any byte stream can carry it, e.g. socat TCP-LISTEN:5000,fork \
            EXEC:'meshport sim --stdio'. That is one link: it ends, and so does the simulator, \
            when stdin reaches end of file or the radio drops the link.

            --fault injects link faults for reliability tests (repeatable, over the scenario's \
            faults): drop-at=N closes the link after answering its N-th frame; drop-chance=P \
            closes it before an answer with chance P per frame; delay-ms=N writes every answer and \
            push N ms late; corrupt-chance=P changes one byte of a written frame with chance P; \
            stall-at=N with stall-seconds=S (default 5) goes silent for S seconds at the N-th \
            frame; seed=N seeds the chances (default: --seed). Frames are counted per link.

            --radios N serves N radios on one simulated air (or a scenario's gateways section \
            places them): each is a gateway at its own place, on its own port (--listen's port, \
            then the next ones; port 0: any free ones) or pty, and hears the mesh's packets with \
            an SNR and RSSI from its distance to the sender, directly and through repeaters. \
            Each radio's address line names it and its public key. --heard-log FILE writes one \
            JSON line per packet a radio heard (Docs/meshsim.md).
            """)

    @Option(help: ArgumentHelp("Where to listen, tcp://HOST:PORT (port 0: any free port).", valueName: "url"))
    var listen: String?

    @Flag(help: "Serve over a pseudo-terminal instead of TCP.") var pty = false

    @Flag(help: "Serve on stdin/stdout instead of TCP (one link; stops when it ends).") var stdio = false

    @Option(help: ArgumentHelp("With --pty: keep a symlink here pointing at the current pseudo-terminal (a new one replaces it when the link is dropped, as a replugged device gets a new node).",
                               valueName: "path"))
    var ptyLink: String?

    @Option(help: ArgumentHelp("With --pty: carry bytes at this serial speed both ways (8N1, 10 bits a byte), as a radio's UART does; default: as fast as the pty takes them.",
                               valueName: "bd"))
    var baud: Int?

    @Option(help: ArgumentHelp("A scenario file (JSON, see Docs/meshsim-scenarios.md); default: the built-in mesh.", valueName: "file"))
    var scenario: String?

    @Option(help: ArgumentHelp("Keep the radio's flash (identity, settings, contacts, channels) in this JSON file: restored at start when it exists, written after every change.",
                               valueName: "file"))
    var state: String?

    @Option(help: "Seed of the simulated mesh (same seed, same mesh); overrides the scenario's.") var seed: UInt64?

    @Option(help: ArgumentHelp("Serve this many radios on one simulated air, placed from --seed (1-64).", valueName: "n"))
    var radios: Int?

    @Option(help: ArgumentHelp("Write one JSON line per packet a radio hears to this file.", valueName: "file"))
    var heardLog: String?

    @Option(name: .customLong("fault"), help: ArgumentHelp("A link fault, KEY=VALUE (repeatable; keys above).", valueName: "key=value"))
    var faults: [String] = []

    func validate() throws {
        if pty, listen != nil { throw ValidationError("--listen and --pty exclude each other") }
        if stdio, pty || listen != nil { throw ValidationError("--stdio excludes --listen and --pty") }
        if ptyLink != nil, !pty { throw ValidationError("--pty-link needs --pty") }
        if baud != nil, !pty || radios != nil { throw ValidationError("--baud needs --pty (one radio on a serial line)") }
        _ = try lineRate()
        if let radios, !GatewayMesh.radioRange.contains(radios) {
            throw ValidationError("--radios \(radios) is outside \(GatewayMesh.radioRange.lowerBound)...\(GatewayMesh.radioRange.upperBound)")
        }
        if radios != nil, stdio || state != nil || ptyLink != nil {
            throw ValidationError("--radios serves several radios: it excludes --stdio, --state and --pty-link, which are for one")
        }
        _ = try Self.faultOverrides(faults)
    }

    func run() async throws {
        try await reportingErrors {
            let file = try scenario.map(ScenarioFile.load)
            if radios != nil || file?.gateways != nil { return try await serveGateways(file) }
            var initial = try file?.state(seed: seed) ?? DefaultMesh.state(seed: seed ?? 1)
            if let path = state { try SavedStateFile.restore(&initial, from: path) }
            let faults = try Self.activeFaults(scenario: file, overrides: Self.faultOverrides(self.faults), seed: seed)
            let radio = SimRadio(state: initial)
            if let path = state { await radio.persist { SavedStateFile.write($0, to: path) } }
            let heard = try heardLog.map(HeardLog.init(path:))
            if let heard { await radio.recordHearings(heard.record) }
            defer { Self.close(heard) }
            let timers = Task { await radio.runTimers() }
            defer { timers.cancel() }
            // Before the address line, which scripts wait for.
            if let faults { StandardStream.error("meshport sim: faults: \(faults)\n") }
            // Before the address line too: whoever reads it may stop us at once.
            Termination.install()
            if stdio {
                let stopped = try await serveStdio(simFrames(radio, faults: faults))
                StandardStream.error("meshport sim: \(stopped)\n")
                return
            }
            let stop: () -> Void
            if pty {
                let peer = try PtyPeer(serve: simFrames(radio, faults: faults, lineRate: lineRate()), linkPath: ptyLink)
                stop = { peer.close() }
                Self.announce("serving on \(peer.slavePath) (serial://\(peer.slavePath))")
            } else {
                let (host, port) = try Self.tcpAddress(listen ?? "tcp://127.0.0.1:5000")
                let peer = try TCPPeer(host: host, port: port, serve: simFrames(radio, faults: faults))
                stop = { peer.stop() }
                Self.announce("listening on tcp://\(host):\(peer.port)")
            }
            let signal = await Termination.wait()
            stop()
            StandardStream.error("meshport sim: stopped by \(signal)\n")
        }
    }

    private func lineRate() throws -> LineRate? {
        do {
            return try baud.map(LineRate.init)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Serves on stdin/stdout until the link ends or a signal comes, and says which. stdout is
    /// the link, so the announce line goes to stderr.
    private func serveStdio(_ frames: @escaping FramePeer) async throws -> String {
        // stdout is often a pipe: its reader going away ends the link, not the process.
        signal(SIGPIPE, SIG_IGN)
        let peer = try StdioPeer(serve: frames)
        StandardStream.error("meshport sim: serving on stdin/stdout\n")
        return await withTaskGroup(of: String?.self) { group in
            group.addTask { await peer.waitUntilEnded().map { "stopped: \($0)" } }
            group.addTask { "stopped by \(await Termination.wait())" }
            defer { group.cancelAll() }
            return await group.next().flatMap { $0 } ?? "stopped: cancelled"
        }
    }

    /// One line on stdout, unbuffered: scripts and tests wait for it to connect.
    static func announce(_ line: String) {
        StandardStream.output("meshport sim: \(line)\n")
    }

    /// `tcp://HOST:PORT` with a numeric IPv4 host and a port 0-65535.
    static func tcpAddress(_ text: String) throws -> (String, UInt16) {
        guard text.hasPrefix("tcp://") else { throw ValidationError("--listen must be tcp://HOST:PORT, not \"\(text)\"") }
        let rest = text.dropFirst("tcp://".count)
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), colon != rest.startIndex else {
            throw ValidationError("--listen \"\(text)\": expected tcp://HOST:PORT with a port 0-65535")
        }
        return (String(rest[..<colon]), port)
    }
}
