import Foundation
import MeshCodec
import MeshServices
import MeshStore

/// How a sent message ended, as `send` and `chat` report it.
struct SendOutcome: Sendable {
    var message: StoredMessage
    /// Whether the ACK came (DMs with waiting); channel messages are never acknowledged.
    var delivered: Bool
}

/// The CLI's one door to sending: DMs with ACK and retries, channel messages. Everything
/// here goes through MeshServices' Messenger.
enum MessengerBridge {
    /// Sends `text` to a contact; with `wait`, until the ACK comes or every retry failed
    /// (`progress` hears each attempt). Throws `CLIError(status: .notDelivered)` when no ACK came.
    static func sendDirect(_ text: String, to contact: StoredContact, radio: Connected, wait: Bool,
                           progress: @escaping @Sendable (String) -> Void = { _ in }) async throws -> SendOutcome {
        throw CLIError("sending needs MeshServices' Messenger, which this build does not have yet")
    }

    static func sendChannel(_ text: String, channel: UInt8, radio: Connected) async throws -> SendOutcome {
        throw CLIError("sending needs MeshServices' Messenger, which this build does not have yet")
    }
}
