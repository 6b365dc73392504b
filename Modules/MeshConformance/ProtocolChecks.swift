import MeshCodec
import MeshTransport

/// A companion session's essentials, when a radio or simulator is on the far side.
enum ProtocolChecks {
    typealias Check = @Sendable (Session, ConformanceSuite) async throws -> String

    static let all: [(String, Check)] = [
        ("APP_START -> SELF_INFO", { s, _ in
            guard case let .response(.selfInfo(info)) = try await ask(s, .appStart(AppStart(appName: "meshport-conformance"))) else {
                throw Failure("no SELF_INFO")
            }
            return "\"\(info.name)\" \(info.publicKey.prefix())"
        }),
        ("DEVICE_QUERY -> DEVICE_INFO", { s, _ in
            guard case let .response(.deviceInfo(d)) = try await ask(s, .deviceQuery(appTargetVersion: 3)) else { throw Failure("no DEVICE_INFO") }
            return "protocol v\(d.protocolVersion), \(d.firmwareVersion ?? d.manufacturer)"
        }),
        ("contact sync", { s, suite in
            guard case let .response(.contactsStart(total)) = try await ask(s, .getContacts(since: nil)) else { throw Failure("no CONTACTS_START") }
            let c = try await s.link()
            var count = 0
            while true {
                switch try RadioFrame(decoding: try await c.nextAnswer(for: [CommandCode.getContacts.rawValue])) {
                case .response(.contact): count += 1
                case .response(.endOfContacts): 
                    guard count == Int(total) else { throw Failure("CONTACTS_START said \(total), got \(count)") }
                    guard count >= suite.expectedContacts else { throw Failure("far side holds \(count) contacts, the check needs \(suite.expectedContacts)") }
                    return "\(count) contacts"
                case let other: throw Failure("unexpected \(other.name) in the contact stream")
                }
            }
        }),
        ("message drain", { s, _ in
            var messages = 0
            while true {
                switch try await ask(s, .syncNextMessage) {
                case .response(.contactMessage), .response(.channelMessage), .response(.channelData): messages += 1
                case .response(.noMoreMessages): return "\(messages) message(s) drained"
                case let other: throw Failure("unexpected \(other.name) while draining")
                }
            }
        }),
        ("DM with ACK", { s, _ in
            guard case let .response(.contactsStart(total)) = try await ask(s, .getContacts(since: nil)), total > 0 else { throw Skip("far side has no contact to message") }
            let c = try await s.link()
            guard case let .response(.contact(first)) = try RadioFrame(decoding: try await c.nextAnswer(for: [4])) else { throw Failure("no contact") }
            for _ in 1..<total { _ = try await c.nextAnswer(for: [4]) }
            _ = try await c.nextAnswer(for: [4])   // END_OF_CONTACTS
            let msg = SendTextMessage(timestamp: 1_763_000_000, recipient: first.publicKey.prefix(), text: "conformance")
            guard case let .response(.sent(sent)) = try await ask(s, .sendTextMessage(msg)) else { throw Failure("no SENT") }
            // The suggested timeout is the radio's estimate; a multi-hop flood's ACK may come
            // later (on air as in the simulator). This checks that the push crosses the link,
            // so it waits twice the estimate plus 2 s.
            let wait = Double(sent.suggestedTimeoutMs) / 1000 * 2 + 2
            while true {
                if case let .push(.sendConfirmed(ack, rtt)) = try RadioFrame(decoding: try await c.nextPush(seconds: wait)),
                   ack == sent.ackCode {
                    return "ACK \(ack) after \(rtt) ms"
                }
            }
        }),
    ]

    static func ask(_ s: Session, _ command: Command) async throws -> RadioFrame {
        guard try await s.radioPresent() else { throw Skip("far side echoes commands: no radio behind the link") }
        let c = try await s.link()
        return try RadioFrame(decoding: try await c.call(try command.encode()))
    }
}
