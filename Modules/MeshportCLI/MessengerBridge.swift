import Foundation
import MeshCodec
import MeshServices
import MeshStore

/// How a sent message ended, as `send` and `chat` report it.
struct SendOutcome: Sendable {
    var message: StoredMessage
    /// The ACK came (DMs sent with waiting); channel messages are never acknowledged.
    var delivered: Bool
    /// How many SEND_TXT_MSG attempts it took, and whether the last went flood.
    var attempts: Int = 1
    var flood = false
    var roundTripMs: UInt32?

    /// The message and how it went, as `send --json` prints it (on failure too).
    var json: [String: Any] {
        var out = Describe.messageJSON(message)
        out["delivered"] = delivered
        out["attempts"] = attempts
        out["flood"] = flood
        return out
    }
}

/// The CLI's one door to MeshServices' Messenger: DMs with ACK and retries, channel messages.
enum MessengerBridge {
    /// Sends `text` to a contact; with `wait`, until the ACK comes or every retry failed
    /// (`progress` hears each attempt). No ACK after every attempt is `.notDelivered` (exit 4).
    static func sendDirect(_ text: String, to contact: StoredContact, messenger: Messenger, radio: ConnectedClient, wait: Bool,
                           progress: @escaping @Sendable (String) -> Void = { _ in }) async throws -> SendOutcome {
        // Each attempt moves the stored message to `sent` again: say which one is under way.
        let events = radio.client.events.subscribe()
        let watcher = Task {
            for await event in events {
                guard case let .messageStatus(m) = event, m.conversation == .direct(contact.publicKey), m.status == .sent else { continue }
                progress("waiting for the ACK from \(contact.name) (attempt \(m.attempt))")
            }
        }
        defer { watcher.cancel() }
        let report: DeliveryReport
        do {
            report = try await messenger.send(text, to: contact.publicKey, wait: wait)
        } catch {
            throw explain(error)
        }
        let flood = report.attempts.last?.flood ?? false
        switch report.outcome {
        case .inFlight:
            return SendOutcome(message: report.message, delivered: false, attempts: report.attempts.count, flood: flood)
        case let .delivered(attempt, roundTrip):
            return SendOutcome(message: report.message, delivered: true, attempts: attempt, flood: report.attempts[safe: attempt - 1]?.flood ?? flood,
                               roundTripMs: roundTrip)
        case let .failed(error):
            let outcome = SendOutcome(message: report.message, delivered: false, attempts: report.attempts.count, flood: flood)
            throw explain(error, details: try JSONSerialization.data(withJSONObject: outcome.json))
        }
    }

    static func sendChannel(_ text: String, channel: UInt8, messenger: Messenger) async throws -> SendOutcome {
        do {
            return SendOutcome(message: try await messenger.sendChannel(text, channel: channel), delivered: false)
        } catch {
            throw explain(error)
        }
    }

    /// The Messenger's error with the exit status it stands for.
    static func explain(_ error: MessagingError, details: Data? = nil) -> CLIError {
        let status: ExitStatus = switch error {
        case .noAck: .notDelivered
        case let .command(_, session): ExitStatus.of(session)
        case .emptyText, .textTooLong, .channelTextTooLong: .usage
        case .emptyChannel, .store, .unexpected, .cancelled: .failure
        }
        let hint = if case .noAck = error { "; the contact may be out of range: `meshport contacts reset-path` and a later try may help" } else { "" }
        return CLIError("\(error)\(hint)", status: status, details: details)
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
