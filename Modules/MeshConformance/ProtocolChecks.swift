import Foundation
import MeshCodec
import MeshTransport

/// A companion session's essentials, when a radio or simulator is on the far side.
enum ProtocolChecks {
    typealias Check = @Sendable (FarSide, ConformanceSuite) async throws -> String

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
            let contacts = try await contactList(s)
            // The firmware never lists a contact whose lastmod is 0, though CONTACTS_START
            // counts it: fewer is what some radios do, more is a broken stream.
            guard contacts.listed.count <= contacts.announced else {
                throw Failure("CONTACTS_START said \(contacts.announced), got \(contacts.listed.count)")
            }
            if let expected = suite.expectedContacts {
                guard contacts.listed.count == contacts.announced else {
                    throw Failure("CONTACTS_START said \(contacts.announced), got \(contacts.listed.count)")
                }
                guard contacts.listed.count >= expected else {
                    throw Failure("far side holds \(contacts.listed.count) contacts, the check needs \(expected)")
                }
            }
            let unlisted = contacts.announced - contacts.listed.count
            return "\(contacts.listed.count) contacts" + (unlisted > 0 ? " (\(unlisted) counted but not listed by the radio)" : "")
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
            guard let to = try await contactList(s).listed.first(where: { $0.type == .chat }) else {
                throw Skip("far side has no chat contact to message")
            }
            // A real recipient drops a repeat of the same timestamp and text: each run's differs.
            let now = UInt32(Date().timeIntervalSince1970)
            let text = "meshport conformance check \(String(now, radix: 36))-\(String(UInt16.random(in: .min ... .max), radix: 36))"
            let msg = SendTextMessage(timestamp: now, recipient: to.publicKey.prefix(), text: text)
            guard case let .response(.sent(sent)) = try await ask(s, .sendTextMessage(msg)) else { throw Failure("no SENT") }
            let c = try await s.link()
            // The suggested timeout is the radio's estimate; a multi-hop flood's ACK may come
            // later (on air as in the simulator). This checks that the push crosses the link,
            // so it waits twice the estimate plus 2 s.
            let wait = Double(sent.suggestedTimeoutMs) / 1000 * 2 + 2
            while true {
                if case let .push(.sendConfirmed(ack, rtt)) = try RadioFrame(decoding: try await c.nextPush(seconds: wait)),
                   ack == sent.ackCode {
                    return "ACK \(ack) after \(rtt) ms (\"\(text)\" is now in \(to.name)'s inbox)"
                }
            }
        }),
    ]

    /// GET_CONTACTS: what CONTACTS_START announced and the contacts listed before END_OF_CONTACTS.
    static func contactList(_ s: FarSide) async throws -> (announced: Int, listed: [Contact]) {
        guard case let .response(.contactsStart(total)) = try await ask(s, .getContacts(since: nil)) else { throw Failure("no CONTACTS_START") }
        let c = try await s.link()
        var listed: [Contact] = []
        while true {
            switch try RadioFrame(decoding: try await c.nextAnswer(for: [CommandCode.getContacts.rawValue])) {
            case let .response(.contact(contact)): listed.append(contact)
            case .response(.endOfContacts): return (Int(total), listed)
            case let other: throw Failure("unexpected \(other.name) in the contact stream")
            }
        }
    }

    static func ask(_ s: FarSide, _ command: Command) async throws -> RadioFrame {
        guard try await s.radioPresent() else { throw Skip("far side echoes commands: no radio behind the link") }
        let c = try await s.link()
        return try RadioFrame(decoding: try await c.call(try command.encode()))
    }
}
