import ArgumentParser
import Foundation
import MeshServices

/// `meshport listen`: everything the radio reports, one line (or one JSON object) each.
struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Stream events: messages, deliveries, contacts, pushes (one line each, or JSON lines with --json).",
        discussion: "Messages drained at connection come first. Reconnects when the link is lost. Runs until interrupted or --count events.")

    @OptionGroup var options: RadioOptions
    @Option(help: "Stop after this many events.") var count: Int?
    @Flag(help: "Only received messages (DMs, channel messages, room posts).") var messagesOnly = false

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
    }

    func run() async throws {
        try await reportingRadioErrors {
            try await RadioConnection.watching(options, keepAlive: true) { radio, events in
                let line = EventLine.reading(radio)
                let json = options.json, limit = count ?? .max, messagesOnly = messagesOnly
                    try await Interruptible.run {
                    var shown = 0
                    for await event in events {
                        if messagesOnly, !Self.isMessage(event) { continue }
                        if json {
                            guard let json = try line.json(event) else { continue }
                            Output.emit(json)
                        } else {
                            guard let text = line.text(event) else { continue }
                            Output.emit(text)
                        }
                        shown += 1
                        if shown >= limit { return }
                    }
                }
            }
        }
    }

    static func isMessage(_ event: ClientEvent) -> Bool {
        switch event {
        case .messageReceived, .roomPost: true
        default: false
        }
    }
}

/// Runs `body` until it returns or SIGINT/SIGTERM arrives, whichever is first.
enum Interruptible {
    static func run(_ body: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask { _ = await Termination.wait() }
            try await group.next()
            group.cancelAll()
        }
    }
}
