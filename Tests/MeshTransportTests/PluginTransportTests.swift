import Foundation
import MeshDriverABI
import MeshSimServe
import Synchronization
import Testing
@testable import MeshTransport

private func transport(_ url: String, driver scheme: String, pluginPath: String? = nil) throws -> PluginTransport {
    var loader = PluginLoader()
    loader.load(directories: [(binDirectory, true)] + (pluginPath.map { [($0, false)] } ?? []))
    let driver = try #require(loader.driver(for: scheme))
    return PluginTransport(url: try TransportURL(url), driver: driver)
}

/// Reads `count` frames, failing instead of hanging if they do not come.
private func next(_ n: Int, from t: PluginTransport, within seconds: Double = 5) async throws -> [[UInt8]] {
    try await withThrowingTaskGroup(of: [[UInt8]].self) { group in
        group.addTask {
            var got: [[UInt8]] = []
            for await f in t.frames {
                got.append(f)
                if got.count == n { break }
            }
            return got
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TransportError.timeout(t.url.text, operation: "\(n) frames", seconds: seconds)
        }
        let first = try await group.next()!
        group.cancelAll()
        return first
    }
}

@Suite(.timeLimit(.minutes(1))) struct PluginTransportTests {
    @Test func tcpRoundTripsFramesOfEverySize() async throws {
        let server = try TCPPeer(serve: echoFrames)
        defer { server.stop() }
        let t = try transport("tcp://127.0.0.1:\(server.port)", driver: "tcp")
        try await t.open()
        let sent = (1...176).map { n in (0..<n).map { UInt8(($0 + n) & 0xFF) } }
        for f in sent { try await t.send(f) }
        #expect(try await next(176, from: t) == sent)
        // The same on the caller's thread: nothing else is sending, so it never declines.
        for f in sent { try #require(t.sendIfIdle(f)).get() }
        #expect(try await next(176, from: t) == sent)
        await t.close()
    }

    /// Frames handed to a handler arrive there whole and in order, none on `frames`, which
    /// still ends when the link does.
    @Test func tcpDeliversFramesToAHandler() async throws {
        let server = try TCPPeer(serve: echoFrames)
        defer { server.stop() }
        let t = try transport("tcp://127.0.0.1:\(server.port)", driver: "tcp")
        let (handed, sink) = AsyncStream.makeStream(of: [UInt8].self)
        t.deliverFrames { sink.yield($0) }
        try await t.open()
        let sent = (1...176).map { n in (0..<n).map { UInt8(($0 + 2 * n) & 0xFF) } }
        for f in sent { try #require(t.sendIfIdle(f)).get() }
        var got: [[UInt8]] = []
        for await f in handed {
            got.append(f)
            if got.count == sent.count { break }
        }
        #expect(got == sent)
        await t.close()
        var onStream = 0
        for await _ in t.frames { onStream += 1 }
        #expect(onStream == 0)
    }

    @Test func tcpRefusedAndLost() async throws {
        let server = try TCPPeer(serve: echoFrames)
        let port = server.port
        let t = try transport("tcp://127.0.0.1:\(port)", driver: "tcp")
        try await t.open()
        // One round trip first: the peer has then accepted, and has a client to drop.
        try await t.send([0x7E, 1])
        #expect(try await next(1, from: t) == [[0x7E, 1]])
        server.dropClient()
        var lost: TransportError?
        for await s in t.states { if case let .lost(e) = s { lost = e; break } }
        guard let lost, case .linkLost = lost else { Issue.record("expected link lost, got \(String(describing: lost))"); return }
        // A lost link refuses a frame with the loss, on either path.
        #expect(throws: lost) { try t.sendIfIdle([0x7E, 2])?.get() }
        await #expect(throws: lost) { try await t.send([0x7E, 2]) }
        await t.close()
        server.stop()
        let refused = try transport("tcp://127.0.0.1:\(port)", driver: "tcp")
        await #expect(throws: TransportError.self) { try await refused.open() }
    }

    @Test func loopbackPacketLink() async throws {
        let dir = try pluginDirectory([(builtLibrary("MeshportExampleLoopback"), "libloopback.so", 0o755)])
        let t = try transport("loopback://x", driver: "loopback", pluginPath: dir)
        try await t.open()
        try await t.send([1, 2, 3])
        #expect(try await next(1, from: t) == [[1, 2, 3]])
        // A packet link carries frames whole: one longer than its maximum is refused, not cut.
        let oversize = [UInt8](repeating: 1, count: t.driver.maxFrameSize + 1)
        #expect(throws: TransportError.self) { try t.sendIfIdle(oversize)?.get() }
        await #expect(throws: TransportError.self) { try await t.send(oversize) }
        await t.close()
        let missing = try transport("loopback://missing", driver: "loopback", pluginPath: dir)
        do {
            try await missing.open()
            Issue.record("opened a missing device")
        } catch let TransportError.notFound(url, reason) {
            #expect(url == "loopback://missing" && reason.contains("no loopback device"))
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct SerialTransportTests {
    @Test func ptyRoundTripAndExclusiveOpen() async throws {
        let pty = try PtyPeer(serve: echoFrames)
        defer { pty.close() }
        let t = try transport("serial://\(pty.slavePath)?baud=115200", driver: "serial")
        try await t.open()
        let sent = (1...176).map { n in [UInt8](repeating: UInt8(n & 0xFF), count: n) }
        for f in sent { try await t.send(f) }
        #expect(try await next(176, from: t) == sent)
        // A second opener is refused while we hold the port.
        let second = try transport("serial://\(pty.slavePath)", driver: "serial")
        do {
            try await second.open()
            Issue.record("second open succeeded")
        } catch let TransportError.busy(_, reason) {
            #expect(reason.contains("locked by another program"))
        }
        await t.close()
    }

    /// A fresh tty is cooked until the driver configures it. What a radio sends in that moment
    /// is edited by the line discipline (here DEL, the erase character, eats a byte) and held;
    /// released after configuring, it would swallow the head of the first real frame.
    @Test func bytesHeardBeforeConfiguringAreDropped() async throws {
        let heard = Mutex<[UInt8]?>(nil), opened = Mutex(false)
        let pty = try PtyPeer(serve: { fd, _, stopped in
            let writer = FrameWriter(fd)
            defer { writer.close() }
            // 5 bytes declared; cooked, DEL erases itself and "b", leaving 3.
            writer.write([0x3E, 0x05, 0x00, 0x61, 0x62, 0x7F, 0x63, 0x64])
            // Its echo shows the line discipline has taken the bytes in.
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0), echo = [UInt8](repeating: 0, count: 64)
            let n = poll(&p, 1, 5_000) == 1 ? read(fd, &echo, echo.count) : 0
            heard.withLock { $0 = Array(echo.prefix(max(0, n))) }
            while !opened.withLock({ $0 }) && !stopped() { usleep(1_000) }
            writer.writeFrame([0x78, 0x79, 0x7A])
            while !stopped() { usleep(10_000) }
            return false
        }, cooked: true)
        defer { pty.close() }
        let deadline = ContinuousClock.now + .seconds(5)
        while heard.withLock({ $0 }) == nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(heard.withLock { $0 }?.isEmpty == false, "the tty echoed nothing: it was not cooked")
        let t = try transport("serial://\(pty.slavePath)", driver: "serial")
        try await t.open()
        opened.withLock { $0 = true }
        #expect(try await next(1, from: t) == [[0x78, 0x79, 0x7A]])
        await t.close()
    }

    @Test func missingDeviceSaysWhatToDo() async throws {
        let t = try transport("serial:///dev/ttyMESHPORT-none", driver: "serial")
        do {
            try await t.open()
            Issue.record("opened a missing device")
        } catch let TransportError.notFound(_, reason) {
            #expect(reason.contains("is the radio plugged in"))
        }
    }

    @Test func badBaudIsAnInvalidURL() async throws {
        let t = try transport("serial:///dev/null?baud=123", driver: "serial")
        await #expect(throws: TransportError.self) { try await t.open() }
    }
}

/// A driver's error carries its fix in a field of its own: the permission error keeps it apart,
/// the others end their sentence with it.
@Suite struct DriverErrorTextTests {
    private func error(_ kind: meshport_error_kind, _ text: String, fix: String? = nil) -> TransportError {
        var e = meshport_error()
        meshport_error_set(&e, kind, text)
        if let fix { meshport_error_set_fix(&e, fix) }
        return TransportError(e, url: "usb://0403:6001")
    }

    @Test func theFixIsAFieldOfTheError() {
        let busy = error(MESHPORT_ERR_BUSY, "interface 0 is claimed by the kernel's ftdi_sio", fix: "unbind it or use serial:///dev/ttyUSB0")
        #expect(busy.description == "usb://0403:6001 is busy: interface 0 is claimed by the kernel's ftdi_sio; unbind it or use serial:///dev/ttyUSB0")
        let denied = error(MESHPORT_ERR_PERMISSION_DENIED, "cannot open /dev/bus/usb/001/004", fix: "install Tools/USB/70-meshport.rules")
        #expect(denied == .permissionDenied("usb://0403:6001", reason: "cannot open /dev/bus/usb/001/004", fix: "install Tools/USB/70-meshport.rules"))
        #expect(error(MESHPORT_ERR_NOT_FOUND, "no such device") == .notFound("usb://0403:6001", reason: "no such device"))
    }

    /// A message set again leaves no fix of an earlier error behind.
    @Test func settingTheMessageEmptiesTheFix() {
        var e = meshport_error()
        meshport_error_set(&e, MESHPORT_ERR_BUSY, "first")
        meshport_error_set_fix(&e, "a fix for the first")
        meshport_error_set(&e, MESHPORT_ERR_NOT_FOUND, "second")
        #expect(e.text == "second" && e.fixText == nil)
    }
}
