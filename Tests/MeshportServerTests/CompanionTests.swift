import Foundation
import MeshCodec
import MeshportTestSupport
import Synchronization
import Testing

/// The companion protocol through the server: existing clients share the radio with Meshport.
@Suite(.timeLimit(.minutes(3))) struct CompanionTests {
    /// A DM from Faraway every second: each pushes MSG_WAITING to every client. The sim's clock
    /// runs from its start, and on a loaded machine serve may connect many seconds later: the
    /// firmware's 16 queue slots would then lose DMs before anyone drains (as a real radio
    /// does), which is not what these tests check, so the queue holds them all.
    static let dmEverySecond = """
        {"extendsDefault": true, "radio": {"offlineQueueSize": 100}, "nodes": [{"id": "far", "name": "Faraway"}],
         "events": [\((1...40).map { #"{"at": \#($0), "dm": {"from": "far", "text": "relay \#($0)"}}"# }.joined(separator: ", "))]}
        """

    /// The DMs of `dmEverySecond` in ten bursts of four, one every 4 s. A lone message is
    /// nearly always the server's: MSG_WAITING starts its drain before a client's next
    /// SYNC_NEXT_MESSAGE is relayed. In a burst, the server stores each message before it asks
    /// for the next, and a client's waiting SYNC_NEXT_MESSAGE takes its turn in between.
    static let dmBursts = """
        {"extendsDefault": true, "radio": {"offlineQueueSize": 100}, "nodes": [{"id": "far", "name": "Faraway"}],
         "events": [\((1...40).map { #"{"at": \#(2 + ($0 - 1) / 4 * 4), "dm": {"from": "far", "text": "relay \#($0)"}}"# }.joined(separator: ", "))]}
        """

    /// meshcore_py (the reference Python client) runs Tools/Interop's checks through the
    /// server's companion port while the server itself keeps sending its own commands.
    @Test func meshcorePyWorksThroughTheServer() async throws {
        let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("no \(python): run `make venv` first")
            return
        }
        let world = try await ServerWorld(companions: 1)
        // Meshport's own traffic on the same radio, all along: rounds until meshcore_py is done,
        // and two at least. Each round is counted whole (no round is cut short: a busy test
        // process may run this task only seldom, and how many rounds fit is not what is checked).
        let pythonDone = Flag()
        let busy = Task {
            var n = 0
            repeat {
                do {
                    let tx = try await world.get("/api/radios/0/settings/tx")
                    let sample = try await world.send("POST", "/api/radios/0/stats/sample")
                    #expect(tx.status == 200 && sample.status == 200, "\(tx) \(sample)")
                    n += 1
                } catch {
                    Issue.record("the server's own traffic failed after \(n) rounds: \(error)")
                    break
                }
            } while n < 2 || !pythonDone.isRaised
            return n
        }
        // The checks that do not race the server for the message queue (it drains what waits).
        let checks = "connect,self_info,device_query,contacts,channel_get,channel_set,channel_echoes,dm_ack,dm_flood_path,login_repeater,status,"
            + "telemetry,status_push,telemetry_push,telemetry_self,login_room,battery,stats,set_tx_power,set_time,time_backwards,frames_parsed"
        let run = try await runProcess(python, [repositoryRoot.appendingPathComponent("Tools/Interop/sim_interop.py").path,
                                                "--tcp", "127.0.0.1:\(world.serve.companionPorts[0])", "--min-contacts", "20", "--only", checks])
        pythonDone.raise()
        let rounds = await busy.value
        let summary = run.out.split(separator: "\n").last { $0.hasSuffix("failed") } ?? ""
        #expect(summary == "22 passed, 0 failed", "\(run.out)\n\(run.err)")
        #expect(rounds >= 2)
        #expect(try await world.get("/api/radios/0").object["ready"] as? Bool == true)
    }

    @Test func messagesAnExternalClientDrainsAreStored() async throws {
        let world = try await ServerWorld(scenario: Self.dmBursts, companions: 1)
        var client = try await CompanionClient(port: world.serve.companionPorts[0])
        // Ask for the next message all the time: some of each burst are handed to us (which ones
        // is a race with the server's own drain, so one is all that is required).
        var drained: Set<String> = []
        var frames: [[UInt8]] = []
        var reconnects = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while drained.count < 2, ContinuousClock.now < deadline {
            if client.isClosed {
                // The server closes its clients while the radio's link is down (a loaded machine
                // can make the sim miss a keepalive): connect again, as a real client would.
                frames += client.frames
                reconnects += 1
                client = try await CompanionClient(port: world.serve.companionPorts[0])
            }
            try client.send([0x0A])
            try await Task.sleep(for: .milliseconds(2))
            for frame in client.frames where frame.first == 0x10 {
                let decoded = try RadioFrame(decoding: frame)
                if case let .response(.contactMessage(m)) = decoded { drained.insert(m.text) }
            }
        }
        if drained.isEmpty {
            // Rare, under heavy load: say what the client and server saw.
            frames += client.frames
            let kinds = Dictionary(grouping: frames, by: { $0.first ?? 0 }).map { String(format: "0x%02X x %d", $0.key, $0.value.count) }
            Issue.record("""
                the external client drained no message in 60 s (\(reconnects) reconnects, connection \(client.isClosed ? "closed" : "open")): \
                it got \(frames.count) frames (\(kinds.sorted().joined(separator: ", ")))
                server's log, last lines:
                \(world.serve.stderr.split(separator: "\n").suffix(40).joined(separator: "\n"))
                """)
        }
        // Every message, drained by the server or by the client, is in the history once.
        var stored: [String] = []
        while stored.count < 40, ContinuousClock.now < deadline + .seconds(20) {
            stored = try await world.searchTexts("relay")
            try await Task.sleep(for: .milliseconds(200))
        }
        let sent = Set((1...40).map { "relay \($0)" })
        #expect(stored.count == 40 && Set(stored) == sent,
                """
                stored \(stored.count) messages (\(Set(stored).count) distinct); missing: \(sent.subtracting(stored).sorted()); \
                the client drained \(drained.sorted()) with \(reconnects) reconnects
                server's log, last lines:
                \(world.serve.stderr.split(separator: "\n").suffix(40).joined(separator: "\n"))
                """)
        // Not only relayed ones: the scenario's first message may be the one the client drains.
        for text in drained {
            let word = String(text.split { !$0.isLetter && !$0.isNumber }.max { $0.count < $1.count } ?? "")
            #expect(try await world.searchTexts(word).contains(text), "drained \(text), not stored")
        }
    }

    @Test func answersGoToTheAskerAndPushesToEveryone() async throws {
        let world = try await ServerWorld(scenario: Self.dmEverySecond, companions: 1)
        let a = try await CompanionClient(port: world.serve.companionPorts[0])
        let b = try await CompanionClient(port: world.serve.companionPorts[0])
        for _ in 0..<20 {
            try a.send([0x05])          // GET_DEVICE_TIME -> CURR_TIME
            try b.send([0x16, 0x03])    // DEVICE_QUERY -> DEVICE_INFO
        }
        try await a.wait("20 CURR_TIME answers") { $0.filter { $0.first == 0x09 }.count == 20 }
        try await b.wait("20 DEVICE_INFO answers") { $0.filter { $0.first == 0x0D }.count == 20 }
        #expect(!a.frames.contains { $0.first == 0x0D } && !b.frames.contains { $0.first == 0x09 })
        // Both hear the radio's pushes (a DM arrives every second: MSG_WAITING).
        try await a.wait("MSG_WAITING") { $0.contains { $0.first == 0x83 } }
        try await b.wait("MSG_WAITING") { $0.contains { $0.first == 0x83 } }
        // An unknown command is answered as the firmware does: ERR, unsupported.
        try a.send([0x2E])
        try await a.wait("ERR for an unknown command") { $0.contains { $0 == [0x01, 0x01] } }
    }

    /// A DM an external client sends is kept; the mesh's ACK (SEND_CONFIRMED, which every
    /// client hears) marks it delivered in the store and the API.
    @Test func anExternalClientsDMBecomesDeliveredWhenAcknowledged() async throws {
        let world = try await ServerWorld(companions: 1)
        let contacts = try await world.get("/api/radios/0/contacts").array
        let pine = try #require(contacts.first { $0["name"] as? String == "Pine" }?["key"] as? String, "\(contacts)")
        let client = try await CompanionClient(port: world.serve.companionPorts[0])
        let key = try #require(Hex.decode(pine))
        let prefix = try #require(KeyPrefix(Array(key.prefix(6))))
        let message = SendTextMessage(timestamp: UInt32(Date().timeIntervalSince1970), recipient: prefix, text: "from another app")
        try client.send(try Command.sendTextMessage(message).encode())
        try await client.wait("SENT and SEND_CONFIRMED") { frames in frames.contains { $0.first == 0x06 } && frames.contains { $0.first == 0x82 } }
        var status: String?
        let deadline = ContinuousClock.now + .seconds(10)
        while status != "delivered", ContinuousClock.now < deadline {
            let page = try await world.get("/api/radios/0/contacts/\(pine)/messages").object
            status = (page["messages"] as? [[String: Any]])?.first { $0["text"] as? String == "from another app" }?["status"] as? String
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(status == "delivered")
    }

    /// A setting an external client changes shows in /self, which the server read again.
    @Test func settingsAnExternalClientChangesShowInSelf() async throws {
        let world = try await ServerWorld(companions: 1)
        let client = try await CompanionClient(port: world.serve.companionPorts[0])
        try client.send(try Command.setAdvertName("Renamed Elsewhere").encode())
        try await client.wait("OK for SET_ADVERT_NAME") { $0.contains { $0 == [0x00] } }
        var name: String?
        let deadline = ContinuousClock.now + .seconds(10)
        while name != "Renamed Elsewhere", ContinuousClock.now < deadline {
            name = try await world.get("/api/radios/0/self").object["name"] as? String
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(name == "Renamed Elsewhere")
    }
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs a program to completion without holding a thread while it runs; after `limit` it is
/// sent SIGTERM (SIGKILL 5 s later) and its status says so.
func runProcess(_ path: String, _ arguments: [String], limit: Duration = .seconds(150)) async throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let exited = AsyncStream<Int32>.makeStream(of: Int32.self)
    process.terminationHandler = { exited.continuation.yield($0.terminationStatus); exited.continuation.finish() }
    try process.run()
    let outReader = PipeReader(out.fileHandleForReading), errReader = PipeReader(err.fileHandleForReading)
    let pid = process.processIdentifier
    let watchdog = Task {
        try await Task.sleep(for: limit)
        kill(pid, SIGTERM)
        try await Task.sleep(for: .seconds(5))
        kill(pid, SIGKILL)
    }
    var status: Int32 = -1
    for await s in exited.stream { status = s }
    watchdog.cancel()
    return (status, try await outReader.fullText(), try await errReader.fullText())
}

/// Raised once, read from any task.
private final class Flag: Sendable {
    private let raised = Mutex(false)
    var isRaised: Bool { raised.withLock { $0 } }
    func raise() { raised.withLock { $0 = true } }
}
