import Foundation
import MeshServices
import MeshportTestSupport
import Testing

/// `meshport listen --json` and `/api/events` speak one schema (Docs/events.md): an event both
/// see decodes to the same value from either.
@Suite(.timeLimit(.minutes(3))) struct EventSchemaTests {
    /// A node the radio does not know yet advertises every 6 s, for as long as a loaded
    /// machine may take to start everything: the radio adds it and pushes ADVERT to every
    /// client, and each client reads the contact back and announces it.
    static let newNodesAdvertising = """
        {"extendsDefault": true,
         "nodes": [\((1...25).map { #"{"id": "n\#($0)", "name": "Newcomer \#($0)", "contact": false}"# }.joined(separator: ", "))],
         "events": [\((1...25).map { #"{"at": \#(4 + 6 * $0), "advert": "n\#($0)"}"# }.joined(separator: ", "))]}
        """

    @Test func listenAndTheEventsStreamDecodeTheSameEventAlike() async throws {
        let world = try await ServerWorld(scenario: Self.newNodesAdvertising, companions: 1)
        let socket = try await RawWebSocket.connect(port: world.port)
        let hello = try Self.decode(try await socket.next())
        guard case let .hello(radios) = hello.body else { throw TestFailure("the first event is not hello: \(hello)") }
        #expect(radios.map(\.id) == ["0"])
        // listen follows the same radio through the server's companion port, with a session
        // (and a store) of its own.
        let listen = try ListenProcess(port: world.serve.companionPorts[0])
        var served: [EventJSON] = []
        var common: EventJSON.Body?
        let deadline = ContinuousClock.now + .seconds(90)
        while common == nil, ContinuousClock.now < deadline {
            served.append(try Self.decode(try await socket.next(within: .seconds(30))))
            let listened = try listen.events()
            common = listened.map(\.body).first { body in
                guard case let .contact(.updated(contact)) = body, contact.name.hasPrefix("Newcomer") else { return false }
                return served.contains { $0.body == body }
            }
        }
        let listened = try listen.events()
        await listen.stop()
        #expect(common != nil, "no contact event for a newcomer seen alike by both: served \(served.count), listened \(listened.map(\.type))\n\(listen.stderr)")
        // The server names the radio; listen, which follows one, does not.
        #expect(served.allSatisfy { $0.radio == "0" }, "\(served.filter { $0.radio != "0" })")
        #expect(listened.allSatisfy { $0.radio == nil })
    }

    private static func decode(_ message: RawWebSocket.Message) throws -> EventJSON {
        guard case let .text(text) = message else { throw TestFailure("not an event: \(message)") }
        return try JSONDecoder().decode(EventJSON.self, from: Data(text.utf8))
    }
}

/// `meshport listen --json` running until stopped; its events decoded as they come.
private final class ListenProcess: @unchecked Sendable {
    private let process = Process()
    private let dir = TempDir()
    private let out: PipeReader
    private let err: PipeReader

    init(port: Int) throws {
        process.executableURL = try meshportBinary()
        process.arguments = ["listen", "--json", "--radio", "tcp://127.0.0.1:\(port)", "--db", dir.path("listen.db")]
        process.environment = meshportEnvironment(in: dir)
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        out = PipeReader(stdout.fileHandleForReading)
        err = PipeReader(stderr.fileHandleForReading)
    }

    /// Every whole line so far, each one an event of the schema (a line that is not fails).
    func events() throws -> [EventJSON] {
        let text = out.current
        let whole = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
        return try whole.split(separator: "\n").map { line in
            do {
                return try JSONDecoder().decode(EventJSON.self, from: Data(line.utf8))
            } catch {
                throw TestFailure("listen printed a line that is not an event (\(error)): \(line)")
            }
        }
    }

    var stderr: String { err.current }

    func stop() async { await terminate(process) }

    deinit {
        if process.isRunning { stopInBackground(process, name: "meshport listen", keeping: dir) }
    }
}
