import Foundation
import MeshCodec
import MeshConformanceCommands
import MeshSim
import MeshSimServe
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The SimRadio actor with an injected clock (no test sleeps for timing), and the TCP link.
@Suite(.timeLimit(.minutes(1))) struct RadioTests {
    /// Collects what the radio pushes to its link.
    final class Pushes: @unchecked Sendable {
        private let lock = NSLock()
        private var frames: [RadioFrame] = []
        func add(_ bytes: [UInt8]) {
            do { let f = try RadioFrame(decoding: bytes); lock.withLock { frames.append(f) } } catch { Issue.record("undecodable push: \(error)") }
        }
        var all: [RadioFrame] { lock.withLock { frames } }
    }

    /// The default mesh is built around the board's 2024 boot time; once an app sets the
    /// clock, what the mesh gave the radio keeps its age against the new clock.
    @Test func theMeshsTimesFollowTheClockWhenItIsSet() async throws {
        let radio = SimRadio(state: DefaultMesh.state(seed: 3), clock: ManualSimClock())
        let now: UInt32 = 1_795_000_000
        func ages(_ s: SimRadioState) -> [Int64] {
            let clock = Int64(s.deviceTime(at: .zero))
            let queued = s.offlineQueue.messages.compactMap { m -> UInt32? in
                switch m {
                case let .contactMessage(c): c.senderTimestamp
                case let .channelMessage(c): c.senderTimestamp
                default: nil
                }
            }
            return (s.contacts.contacts.flatMap { [$0.lastAdvert, $0.lastModified] } + queued).map { clock - Int64($0) }
        }
        let before = ages(await radio.state)
        #expect(await radio.handle(.setDeviceTime(now)) == [.response(.ok(value: nil))])
        let after = ages(await radio.state)
        #expect(!after.isEmpty && after == before)
        #expect(after.allSatisfy { $0 >= 0 && $0 < 4 * 86_400 }, "everything was heard within the last days, not years ago")
    }

    @Test func sendConfirmedArrivesAfterTheSimulatedLatency() async throws {
        let clock = ManualSimClock()
        let radio = SimRadio(state: DefaultMesh.state(seed: 3), clock: clock)
        let pushes = Pushes()
        _ = await radio.connect { pushes.add($0) }
        let to = await radio.state.contacts.contacts[0]
        let m = SendTextMessage(timestamp: 1_800_000_000, recipient: to.publicKey.prefix(), text: "ack me")
        let answer = await radio.handle(.sendTextMessage(m)).first
        guard case let .response(.sent(sent)) = answer else { Issue.record("no SENT"); return }
        let due = try #require(await radio.nextDue)
        #expect(due > .zero && due < .milliseconds(Int64(sent.suggestedTimeoutMs)), "the ACK comes within the suggested timeout")
        clock.advance(by: due - .milliseconds(1))
        await radio.tick()
        #expect(pushes.all.withoutAirLog.isEmpty, "nothing before the latency has passed")
        clock.advance(by: .milliseconds(1))
        await radio.tick()
        #expect(pushes.all.withoutAirLog == [.push(.sendConfirmed(ackCode: sent.ackCode, roundTripMs: UInt32(due.components.seconds * 1000) + UInt32(due.components.attoseconds / 1_000_000_000_000_000)))])
    }

    @Test func floodSendLearnsThePathBeforeTheAck() async throws {
        let clock = ManualSimClock()
        let radio = SimRadio(state: DefaultMesh.state(seed: 3), clock: clock)
        let pushes = Pushes()
        _ = await radio.connect { pushes.add($0) }
        let to = await radio.state.contacts.contacts[1]
        #expect(to.outPath.length.isNone)
        let answer = await radio.handle(.sendTextMessage(SendTextMessage(timestamp: 5, recipient: to.publicKey.prefix(), text: "hi"))).first
        guard case let .response(.sent(sent)) = answer, sent.flood else { Issue.record("no flood SENT"); return }
        clock.advance(by: .seconds(Int64(sent.suggestedTimeoutMs / 1000 + 1)))
        await radio.tick()
        #expect(pushes.all.withoutAirLog.map(\.name) == ["PUSH_CODE_PATH_UPDATED", "PUSH_CODE_SEND_CONFIRMED"])
        #expect(await radio.state.contacts.contact(to.publicKey)?.outPath.length.isNone == false)
    }

    @Test func chatterQueuesAndPushesMessageWaiting() async throws {
        let clock = ManualSimClock()
        let radio = SimRadio(state: DefaultMesh.state(seed: 3), clock: clock)
        let pushes = Pushes()
        _ = await radio.handle(.deviceQuery(appTargetVersion: 3))
        let before = await radio.state.offlineQueue.count
        // No link: the push is dropped, the message stays queued.
        clock.advance(by: .seconds(15))
        await radio.tick()
        #expect(await radio.state.offlineQueue.count == before + 1)
        _ = await radio.connect { pushes.add($0) }
        let next = try #require(await radio.nextDue)
        #expect(next > .seconds(15) && next <= .seconds(25), "the next line comes 4-10 s later")
        clock.advance(by: next - .seconds(15))
        await radio.tick()
        #expect(pushes.all.withoutAirLog == [.push(.messageWaiting)])
        #expect(await radio.state.offlineQueue.count == before + 2)
        let newest = await radio.state.offlineQueue.messages.last
        guard case let .channelMessage(last) = newest else { Issue.record("no channel message"); return }
        #expect(last.format == .v3, "queued after DEVICE_QUERY(3)")
    }

    @Test func hooksAndUndecodableFrames() async {
        let radio = SimRadio(state: DefaultMesh.state(seed: 3), clock: ManualSimClock())
        #expect(await radio.receive([ConformanceCommand.echo, 1, 2]) == SimLinkReply(frames: [[ConformanceCommand.echo, 1, 2]]))
        #expect(await radio.receive([ConformanceCommand.garbageThenEcho]).rawPrefix == ConformanceCommand.garbage)
        #expect(await radio.receive([ConformanceCommand.dropMidFrame]).dropMidFrame)
        #expect(await radio.receive([0x2C]).frames == [[0x01, 0x01]], "parked code 44: ERR unsupported")
        #expect(await radio.receive([CommandCode.getStats.rawValue, 9]).frames == [[0x01, 0x06]], "unknown stats type: ERR illegal argument")
        #expect(await radio.receive([CommandCode.sendTextMessage.rawValue, 0]).frames == [[0x01, 0x01]], "too short: ERR unsupported")
        #expect(await radio.problems.isEmpty)
    }

    /// A new TCP client replaces the old one (Docs/protocol.md §1.3): the old link is closed and
    /// pushes go to the new one.
    @Test func newTCPClientReplacesTheOld() async throws {
        let radio = SimRadio(state: DefaultMesh.state(seed: 3), clock: ManualSimClock())
        let server = try TCPPeer(serve: simFrames(radio))
        defer { server.stop() }
        // The client blocks in read(): off the cooperative pool, which the radio actor needs.
        let first = try Client(port: server.port)
        #expect(try await blocking { try first.call([CommandCode.getDeviceTime.rawValue]) }.first == ResponseCode.currentTime.rawValue)
        let second = try Client(port: server.port)
        #expect(try await blocking { try second.call([CommandCode.getDeviceTime.rawValue]) }.first == ResponseCode.currentTime.rawValue)
        #expect(try await blocking { first.readsEOF() }, "the first client was dropped")
        await radio.deliver(.channel(index: 0, senderName: "x", text: "y", sentAt: 1, hops: 0))
        // The packet is logged as heard (LOG_RX_DATA), then announced.
        #expect(try await blocking { try [second.read().first, second.read().first] } == [PushCode.logRxData.rawValue, PushCode.messageWaiting.rawValue])
    }

    /// Runs blocking socket code on its own thread.
    private func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { c in Thread { c.resume(with: Result { try body() }) }.start() }
    }

    /// A blocking TCP client with a receive timeout, so a missing answer fails instead of hanging.
    final class Client: @unchecked Sendable {
        let fd: Int32
        var decoder = FrameDecoder(direction: .fromRadio)
        var pending: [[UInt8]] = []

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = UInt16(port).bigEndian
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            var tv = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard r == 0 else { throw PeerErrorText("connect failed: errno \(errno)") }
        }

        deinit { close(fd) }

        func call(_ frame: [UInt8]) throws -> [UInt8] {
            let framed = try FrameEncoder.encode(frame, direction: .toRadio)
            guard write(fd, framed, framed.count) == framed.count else { throw PeerErrorText("write failed") }
            return try read()
        }

        func read() throws -> [UInt8] {
            var buf = [UInt8](repeating: 0, count: 512)
            while pending.isEmpty {
                let n = Glibc.read(fd, &buf, buf.count)
                guard n > 0 else { throw PeerErrorText("no frame (read returned \(n))") }
                for e in decoder.feed(buf[0..<n]) { if case let .frame(f) = e { pending.append(f) } }
            }
            return pending.removeFirst()
        }

        func readsEOF() -> Bool {
            var buf = [UInt8](repeating: 0, count: 16)
            return Glibc.read(fd, &buf, buf.count) == 0
        }
    }

    struct PeerErrorText: Error { let text: String; init(_ t: String) { text = t } }
}
