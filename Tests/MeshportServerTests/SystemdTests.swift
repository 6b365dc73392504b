import Foundation
import MeshportTestSupport
import Testing
@testable import MeshportServer

/// serve under systemd (`Type=notify`): READY=1 once the listeners are up and each radio's
/// first attempt ended, a status naming the radio that is down, keep-alives while it runs,
/// STOPPING=1 on shutdown; and its log as one JSON object per line.
@Suite(.timeLimit(.minutes(2))) struct SystemdTests {
    @Test func serveTellsSystemdWhenItIsReadyAliveAndStopping() async throws {
        let dir = TempDir()
        let socket = try NotifySocket(dir.path("notify"))
        // A radio nothing listens on: serve is ready all the same, and says which is down.
        let world = try await ServerWorld(serveArguments: ["--log-format", "json", "--log-level", "info"], extraRadios: ["tcp://127.0.0.1:1"],
                                          companions: 1, environment: ["NOTIFY_SOCKET": socket.address, "WATCHDOG_USEC": "400000"])
        let ready = try #require(await socket.until(within: 30) { $0.contains("READY=1") }, "no READY=1")
        let fields = ready.last?.split(separator: "\n").map(String.init) ?? []
        #expect(fields.contains("READY=1"), "\(ready)")
        let status = fields.first { $0.hasPrefix("STATUS=") } ?? ""
        #expect(status.hasPrefix("STATUS=1 of 2 radios connected; down: radio 1 (tcp://127.0.0.1:1): "), "\(status)")
        // WATCHDOG_USEC 0.4 s: a keep-alive every 0.2 s.
        var pings = 0
        while pings < 3, let message = await socket.next(within: 5) {
            if message == "WATCHDOG=1" { pings += 1 }
        }
        #expect(pings == 3)
        let exit = try await world.serve.stop()
        #expect(exit == 0, "exit \(String(describing: exit)) (nil: still running 20 s after SIGTERM): \(world.serve.stderr)")
        #expect(await socket.until(within: 10) { $0.contains("STOPPING=1") } != nil, "no STOPPING=1")

        let lines = world.serve.stderr.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["time"] is String && object?["level"] is String && object?["label"] is String && object?["message"] is String,
                    "not a JSON log line: \(line)")
        }
        #expect(lines.contains { $0.contains(#""message":"Ready: 1 of 2 radios connected"#) }, "\(world.serve.stderr)")
    }

    @Test func anAbstractSocketIsReachedAndNoSocketMeansNoNotifier() async throws {
        let name = "@meshport-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socket = try NotifySocket(name)
        let notifier = try #require(try SystemdNotifier(environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"]))
        #expect(notifier.watchdogInterval == nil, "the keep-alives are for process 1, not this one")
        try notifier.send(["STATUS=Testing.", "READY=1"])
        #expect(await socket.next(within: 5) == "STATUS=Testing.\nREADY=1")
        #expect(try SystemdNotifier(environment: [:]) == nil)
        #expect(throws: SystemdNotifyError.badAddress("relative/path")) { try SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]) }
    }

    /// A systemd that does not read must not stall serve: the socket queues 10 datagrams
    /// (net.unix.max_dgram_qlen); a send that waited past that would stall the shutdown that
    /// sends STOPPING=1, and serve would not exit on SIGTERM.
    @Test func aSystemdThatDoesNotReadNeverBlocksASend() async throws {
        let dir = TempDir()
        let socket = try NotifySocket(dir.path("stuck"), reading: false)
        let notifier = try #require(try SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.address]))
        var dropped = 0
        for _ in 0..<100 {
            do {
                try notifier.send(["WATCHDOG=1"])
            } catch {
                #expect(error == .notReading(socket.address))
                dropped += 1
            }
        }
        #expect(dropped > 0 && dropped < 100, "\(dropped) of 100 dropped")
        #expect(SystemdNotifyError.notReading(socket.address).description.contains("not reading"))
    }
}
