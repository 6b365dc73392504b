import MeshCodec
import MeshConformanceCommands
import MeshTransport

/// One open link the checks share, and what the far side turned out to support.
actor FarSide {
    let suite: ConformanceSuite
    private var client: LinkClient?
    private var transport: (any Transport)?
    private(set) var hasEcho = false
    private var radio: Bool?

    init(suite: ConformanceSuite) { self.suite = suite }

    func link() async throws -> LinkClient {
        if let client, await !client.finished { return client }
        let t = try suite.makeTransport()
        try await t.open()
        let c = LinkClient(t)
        await c.start()
        transport = t
        client = c
        return c
    }

    func close() async {
        await client?.stop()
        await transport?.close()
        client = nil
        transport = nil
    }

    /// Whether a radio answers behind the link: a pure echo device (the C loopback) hands
    /// APP_START back unchanged. Asked once.
    func radioPresent() async throws -> Bool {
        if let radio { return radio }
        let request = try Command.appStart(AppStart(appName: "meshport-conformance")).encode()
        let present = try await link().call(request) != request
        radio = present
        return present
    }

    private func echoLink() async throws -> LinkClient {
        guard hasEcho else { throw Skip("far side does not answer the echo command (a real radio): link checks need MeshSim") }
        return try await link()
    }

    func probe() async throws -> String {
        let c = try await link()
        let probe: [UInt8] = [ConformanceCommand.echo, 0x01, 0x02, 0x03]
        let answer = try await c.call(probe)
        if answer == probe {
            hasEcho = true
            return "far side echoes"
        }
        throw Skip("far side answered \(Hex.encode(answer)), not the echo")
    }

    func allSizes() async throws -> String {
        let c = try await echoLink()
        for n in 1...suite.maxFrameSize {
            let frame = [ConformanceCommand.echo] + (1..<n).map { UInt8(($0 * 7 + n) & 0xFF) }
            let answer = try await c.call(frame)
            guard answer == frame else { throw Failure("size \(n): got \(answer.count) bytes back, content \(answer == frame ? "same" : "differs")") }
        }
        return "1...\(suite.maxFrameSize) bytes echoed intact"
    }

    func burst(_ n: Int) async throws -> String {
        let c = try await echoLink()
        let frames = (0..<n).map { i in [ConformanceCommand.echo, UInt8(i >> 8), UInt8(i & 0xFF)] + [UInt8](repeating: UInt8(i & 0xFF), count: i % 150) }
        let reader = Task { () throws -> Int in
            for (i, f) in frames.enumerated() {
                let a = try await c.nextAnswer(for: f)
                guard a == f else { throw Failure("frame \(i) of the burst came back as \(Hex.encode(a.prefix(3)))...") }
            }
            return n
        }
        for f in frames { try await c.sendOnly(f) }
        return "\(try await reader.value) frames in order"
    }

    func concurrentSenders(tasks: Int, each: Int) async throws -> String {
        let c = try await echoLink()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<tasks {
                group.addTask {
                    for i in 0..<each {
                        let f: [UInt8] = [ConformanceCommand.echo, UInt8(t), UInt8(i)]
                        let a = try await c.call(f)
                        guard a == f else { throw Failure("sender \(t) call \(i) got another caller's answer \(Hex.encode(a))") }
                    }
                }
            }
            try await group.waitForAll()
        }
        return "\(tasks) senders x \(each) calls, each answer to its caller"
    }

    func cancellation() async throws -> String {
        let c = try await echoLink()
        let cancelled = Task { try await c.call([ConformanceCommand.echo, 0xCA, 0x01]) }
        cancelled.cancel()
        _ = await cancelled.result
        let f: [UInt8] = [ConformanceCommand.echo, 0xCA, 0x02]
        let a = try await c.call(f)
        guard a == f else { throw Failure("after a cancelled call the next caller got \(Hex.encode(a))") }
        return "a cancelled call's answer never reached the next caller"
    }

    func garbage() async throws -> String {
        guard suite.linkKind == .stream else { throw Skip("packet links carry no framing to corrupt") }
        let c = try await echoLink()
        let f: [UInt8] = [ConformanceCommand.garbageThenEcho]
        let a = try await c.call(f)
        guard a == f else { throw Failure("after garbage the answer was \(Hex.encode(a))") }
        let after: [UInt8] = [ConformanceCommand.echo, 0x60, 0x61]
        guard try await c.call(after) == after else { throw Failure("link did not recover after garbage") }
        return "framer resynchronised; link usable"
    }

    func lossMidFrame() async throws -> String {
        let c = try await echoLink()
        guard let t = transport else { throw Failure("no link") }
        let start = ContinuousClock.now
        try await c.sendOnly([ConformanceCommand.dropMidFrame])
        // Bounded even when no state ever arrives: a driver that misses the loss must fail, not hang.
        let lost = await withTaskGroup(of: TransportError?.self) { group in
            group.addTask {
                for await s in t.states { if case let .lost(e) = s { return e } }
                return nil
            }
            group.addTask {
                do { try await Task.sleep(for: .seconds(5)) } catch {}
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let e = lost else { throw Failure("no link-loss state within 5 s") }
        let d = ContinuousClock.now - start
        do {
            try await t.send([ConformanceCommand.echo])
            throw Failure("send after loss succeeded")
        } catch is TransportError {
            return "lost within \(d): \(e)"
        }
    }
}
