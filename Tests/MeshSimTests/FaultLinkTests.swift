import Foundation
import MeshCodec
import MeshConformanceCommands
import MeshSim
import MeshSimServe
import MeshportTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Faults on real links: TCPPeer and PtyPeer serving `simFrames(radio, faults:)`. The app
/// side blocks on its own threads (`offPool`) with read timeouts: a missing answer fails, it
/// does not hang, and no sleep stands in for a read.
@Suite(.timeLimit(.minutes(1))) struct FaultLinkTests {
    /// A radio with an empty mesh and a clock that never moves: nothing is pushed unasked.
    static func radio() throws -> SimRadio { SimRadio(state: try Scenario().state(seed: 5), clock: ManualSimClock()) }

    static func echo(_ i: Int) -> [UInt8] { [ConformanceCommand.echo, UInt8(i), 0xA5, 0x5A] }

    @Test func linkClosesRightAfterTheNthAnswer() async throws {
        let server = try TCPPeer(serve: simFrames(try Self.radio(), faults: SimFaults(dropLinkAtFrame: 3)))
        defer { server.stop() }
        // Twice: each link counts its own frames.
        for _ in 0..<2 {
            let app = try AppLink(port: server.port)
            let answers = try await offPool { try (1...3).map { try app.call(Self.echo($0)) } }
            #expect(answers == (1...3).map(Self.echo))
            #expect(await offPool { app.closes() }, "closed after the third answer")
        }
    }

    @Test func delayedAnswerStillComesBeforeTheDrop() async throws {
        let server = try TCPPeer(serve: simFrames(try Self.radio(), faults: SimFaults(dropLinkAtFrame: 2, delayMs: 100)))
        defer { server.stop() }
        let app = try AppLink(port: server.port)
        #expect(try await offPool { try [app.call(Self.echo(1)), app.call(Self.echo(2))] } == [Self.echo(1), Self.echo(2)])
        #expect(await offPool { app.closes() })
    }

    /// A random drop: the radio handles the frame, the answer is lost with the link.
    @Test func randomDropLosesTheAnswerNotTheCommand() async throws {
        let radio = try Self.radio()
        let server = try TCPPeer(serve: simFrames(radio, faults: SimFaults(dropChance: 1)))
        defer { server.stop() }
        let app = try AppLink(port: server.port)
        try app.send([Command.setAdvertName("Dropped").encode()])
        #expect(await offPool { app.closes() })
        #expect(await radio.state.name == "Dropped")
    }

    /// Every answer corrupted, one link per answer: the client's decoder reports a rejected
    /// header, skips or truncates bytes, or returns a changed frame; never the answer sent.
    @Test func corruptedFramesAreSeenAsBadOrChanged() async throws {
        let server = try TCPPeer(serve: simFrames(try Self.radio(), faults: SimFaults(dropLinkAtFrame: 1, corruptChance: 1, seed: 3)))
        defer { server.stop() }
        var changed = 0, bad = 0
        for i in 0..<24 {
            let app = try AppLink(port: server.port)
            try app.send([Self.echo(i)])
            let bytes = try #require(await offPool { app.bytesUntilClose() }, "link \(i): closed after the answer")
            var decoder = FrameDecoder(direction: .fromRadio)
            let events = decoder.feed(bytes)
            #expect(bytes.count == 7 && events != [.frame(Self.echo(i))], "link \(i): \(events)")
            if events.count == 1, case .frame = events[0], !decoder.isMidFrame, decoder.stats.skippedBytes == 0 { changed += 1 } else { bad += 1 }
        }
        #expect(changed > 0 && bad > 0, "payload and header corruption both seen (\(changed) changed, \(bad) bad)")
    }

    @Test func stallDelaysAnswersWithoutClosing() async throws {
        let server = try TCPPeer(serve: simFrames(try Self.radio(), faults: SimFaults(stallAtFrame: 2, stallSeconds: 0.4)))
        defer { server.stop() }
        let app = try AppLink(port: server.port)
        #expect(try await offPool { try app.call(Self.echo(1)) } == Self.echo(1))
        let sent = ContinuousClock.now
        try app.send((2...4).map(Self.echo))
        #expect(try await offPool { try (2...4).map { _ in try app.read() } } == (2...4).map(Self.echo), "all answered, in order")
        // A lower bound only: no answer can come before the stall has ended.
        #expect(ContinuousClock.now - sent >= .milliseconds(400))
        #expect(try await offPool { try app.call(Self.echo(5)) } == Self.echo(5), "the link stayed open")
    }

    @Test func delayDeliversEveryAnswerAndPushInOrder() async throws {
        let radio = try Self.radio()
        let server = try TCPPeer(serve: simFrames(radio, faults: SimFaults(delayMs: 50)))
        defer { server.stop() }
        let app = try AppLink(port: server.port)
        #expect(try await offPool { try app.call(Self.echo(0)) } == Self.echo(0), "linked up")
        let sent = ContinuousClock.now
        try app.send((1...10).map(Self.echo))
        await radio.deliver(.channel(index: 0, senderName: "x", text: "y", sentAt: 1, hops: 0))
        // Ten answers, and two pushes: the packet heard (LOG_RX_DATA), then MSG_WAITING.
        let got = try await offPool { try (0..<12).map { _ in try app.read() } }
        #expect(ContinuousClock.now - sent >= .milliseconds(50))
        #expect(got.filter { $0.first == ConformanceCommand.echo } == (1...10).map(Self.echo))
        #expect(got.filter { $0 == [PushCode.messageWaiting.rawValue] }.count == 1, "the push is delayed, not lost")
        #expect(got.filter { $0.first == PushCode.logRxData.rawValue }.count == 1)
        #expect(try await offPool { try app.call(Self.echo(11)) } == Self.echo(11))
    }

    /// Over a pty, a drop closes the master (the app sees a hangup) and a new pty takes its
    /// place, where a fresh plan counts from frame 1 again.
    @Test func ptyDropHangsUpAndTheReplugStartsAFreshLink() async throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-fault-\(UUID().uuidString)").path
        defer { unlink(link); unlink(link + ".new") }
        let pty = try PtyPeer(serve: simFrames(try Self.radio(), faults: SimFaults(dropLinkAtFrame: 2)), linkPath: link)
        defer { pty.close() }
        var made: ino_t = 0
        for round in 0..<2 {
            let old = made
            made = try await offPool { try AppLink.waitForNewLink(link, after: old) }
            let app = try AppLink(pty: link)
            let answers = try await offPool { try (1...2).map { try app.call(Self.echo($0)) } }
            #expect(answers == (1...2).map(Self.echo), "round \(round)")
            #expect(await offPool { app.closes() }, "round \(round): hangup after the second answer")
        }
    }
}

/// The app's end of a link, a TCP socket or a pty slave in raw mode: blocking, with 5 s
/// timeouts on reads. Used by one thread at a time.
final class AppLink: @unchecked Sendable {
    let fd: Int32
    private let isSocket: Bool
    private var decoder = FrameDecoder(direction: .fromRadio)
    private var pending: [[UInt8]] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        isSocket = true
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard r == 0 else { throw RadioTests.PeerErrorText("connect failed: errno \(errno)") }
    }

    init(pty path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY)
        isSocket = false
        guard fd >= 0 else { throw RadioTests.PeerErrorText("cannot open \(path): errno \(errno)") }
        var t = termios()
        tcgetattr(fd, &t)
        cfmakeraw(&t)
        tcsetattr(fd, TCSANOW, &t)
    }

    deinit { close(fd) }

    /// Writes `frames` at once, as an app that does not wait for answers.
    func send(_ frames: [[UInt8]]) throws {
        let bytes = try frames.flatMap { try FrameEncoder.encode($0, direction: .toRadio) }
        // MSG_NOSIGNAL: a link the peer closed is an error here, not a SIGPIPE for the test run.
        let n = isSocket ? Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) : write(fd, bytes, bytes.count)
        guard n == bytes.count else { throw RadioTests.PeerErrorText("write failed: errno \(errno)") }
    }

    func call(_ frame: [UInt8]) throws -> [UInt8] {
        try send([frame])
        return try read()
    }

    func read() throws -> [UInt8] {
        var buf = [UInt8](repeating: 0, count: 512)
        while pending.isEmpty {
            let n = readChunk(&buf)
            guard n > 0 else { throw RadioTests.PeerErrorText("no frame (read returned \(n))") }
            for e in decoder.feed(buf[0..<n]) { if case let .frame(f) = e { pending.append(f) } }
        }
        return pending.removeFirst()
    }

    /// The far side closed the link (end of file; EIO on a pty whose master is gone), as
    /// opposed to a timeout or more data.
    func closes() -> Bool {
        var buf = [UInt8](repeating: 0, count: 16)
        let n = readChunk(&buf)
        return n == 0 || (n == -1 && (errno == EIO || errno == ECONNRESET))
    }

    /// Every byte until the far side closes; nil on a timeout.
    func bytesUntilClose() -> [UInt8]? {
        var all: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 512)
        while true {
            let n = readChunk(&buf)
            if n == 0 { return all }
            if n < 0 { return nil }
            all += buf[0..<n]
        }
    }

    /// What read(2) returns, or -2 after 5 s without anything to read.
    private func readChunk(_ buf: inout [UInt8]) -> Int {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 5000) == 1 else { return -2 }
        return Glibc.read(fd, &buf, buf.count)
    }

    /// The symlink at `link` once it is not the one numbered `old`: the peer makes a new
    /// one for each pty (the pty's own number may be reused). Nothing to read announces
    /// it, so this polls, for at most 5 s.
    static func waitForNewLink(_ link: String, after old: ino_t) throws -> ino_t {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            var st = stat()
            if lstat(link, &st) == 0, st.st_ino != old { return st.st_ino }
            usleep(10_000)
        }
        throw RadioTests.PeerErrorText("\(link) was not replaced")
    }
}
