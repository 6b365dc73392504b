import ArgumentParser
import MeshServices
import MeshTransport

/// meshport's exit statuses (Docs/cli.md). Scripts can tell "the radio did not answer" from
/// "the message was not delivered" from "there is no such device".
enum ExitStatus: Int32, CaseIterable {
    case ok = 0
    /// Anything else that went wrong: a bad file, an unknown contact, a store error.
    case failure = 1
    /// No answer in time: the radio, or a remote node through the mesh, stayed silent.
    case noAnswer = 3
    /// A message was sent but no ACK came back after every retry.
    case notDelivered = 4
    /// The link could not be opened or was lost: no such device, connection refused, no driver.
    case link = 5
    /// The radio refused a command, or did not apply a setting as asked.
    case refused = 6
    /// Bad arguments (EX_USAGE, as swift-argument-parser reports them).
    case usage = 64

    var meaning: String {
        switch self {
        case .ok: "success"
        case .failure: "error (message on stderr)"
        case .noAnswer: "no answer in time from the radio or a remote node"
        case .notDelivered: "message not delivered (no ACK after retries)"
        case .link: "link or device not found, refused or lost"
        case .refused: "refused by the radio, or a setting not applied as asked"
        case .usage: "usage error (bad arguments or options)"
        }
    }

    /// The exit status an error stands for.
    static func of(_ error: any Error) -> ExitStatus {
        switch error {
        case let error as CLIError: return error.status
        case let error as SessionError:
            switch error {
            case .noAnswer: return .noAnswer
            case .refused: return .refused
            case .linkClosed: return .link
            case .unexpected, .undecodable: return .failure
            }
        case let error as ContactsError:
            switch error {
            case .notApplied, .importIgnored: return .refused
            case .invalidCard: return .usage
            case .notFound, .ambiguous, .invalidName: return .failure
            }
        case let error as ChannelsError:
            if case .notApplied = error { return .refused }
            return .failure
        case let error as SettingsError:
            switch error {
            case .mismatch, .refused, .repeatNotAllowed, .clockCannotGoBack, .unsupported: return .refused
            case .outOfRange, .invalidValue, .unknownSetting, .readOnly: return .usage
            }
        case let error as RemoteError:
            switch error {
            case .noAnswer: return .noAnswer
            case .wrongPassword: return .refused
            case .linkLost: return .link
            case .unknownContact, .undecodableReply, .noRememberedPassword, .noPasswordVault: return .failure
            }
        case let error as TransportError:
            switch error {
            case .timeout: return .noAnswer
            case .invalidURL: return .usage
            default: return .link
            }
        default: return .failure
        }
    }

    /// For --help: one line per status.
    static var helpText: String {
        "Exit status of the radio commands: " + allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ") + "."
    }
}
