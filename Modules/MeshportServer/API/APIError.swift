import Foundation
import HTTPTypes
import Hummingbird
import MeshServices
import MeshStore
import MeshTransport

/// Every failure the API reports: an HTTP status and a JSON body
/// `{"error": {"code": "...", "message": "..."}}` whose code a client can switch on and whose
/// message says what happened and what to do.
struct APIError: Error, HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The same error with its message passed through `redact` (a radio's secrets hidden).
    func redacted(by redact: (String) -> String) -> APIError {
        APIError(status, code, redact(message), headers: headers)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(Body(error: .init(code: code, message: message)))
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
        }
        let error: Detail
    }

    // MARK: The server's own

    static func radioNotReady(id: String, state: String, lastError: String?) -> APIError {
        APIError(.serviceUnavailable, "radio_not_ready", "radio \(id) is \(state), not ready" + (lastError.map { " (last error: \($0))" } ?? "")
            + "; try again once it is (the events stream says when)")
    }

    static func unknownRadio(_ id: String, known: Int) -> APIError {
        APIError(.notFound, "unknown_radio", "no radio \"\(id)\"; radios are numbered 0 to \(known - 1) in the order of --radio")
    }

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "bad_request", message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }

    // MARK: From the layers below

    /// The service's typed error as a status and code.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let e as APIError: return e
        case let e as HTTPError:
            return APIError(e.status, e.status == .notFound ? "not_found" : e.status == .contentTooLarge ? "body_too_large" : "http_error",
                            e.body ?? e.status.reasonPhrase)
        case let e as SessionError: return session(e)
        case let e as MessagingError: return messaging(e)
        case let e as ContactsError:
            switch e {
            case .notFound: return APIError(.notFound, "contact_not_found", e.description)
            case .ambiguous: return APIError(.conflict, "ambiguous_contact", e.description)
            case .notApplied, .importIgnored: return APIError(.conflict, "not_applied", e.description)
            case .invalidName: return APIError(.badRequest, "invalid_name", e.description)
            case .invalidCard: return APIError(.badRequest, "invalid_card", e.description)
            }
        case let e as ChannelsError:
            switch e {
            case .nameTooLong: return APIError(.badRequest, "invalid_name", e.description)
            case .noFreeSlot: return APIError(.conflict, "no_free_slot", e.description)
            case .notFound: return APIError(.notFound, "channel_not_found", e.description)
            case .notApplied: return APIError(.conflict, "not_applied", e.description)
            }
        case let e as SettingsError:
            switch e {
            case .mismatch: return APIError(.conflict, "setting_mismatch", e.description)
            case .refused, .repeatNotAllowed: return APIError(.unprocessableContent, "refused_by_radio", e.description)
            case .outOfRange: return APIError(.badRequest, "out_of_range", e.description)
            case .invalidValue: return APIError(.badRequest, "invalid_value", e.description)
            case .unknownSetting: return APIError(.notFound, "unknown_setting", e.description)
            case .readOnly: return APIError(.badRequest, "read_only", e.description)
            case .unsupported: return APIError(.unprocessableContent, "unsupported", e.description)
            case .clockCannotGoBack: return APIError(.conflict, "clock_cannot_go_back", e.description)
            }
        case let e as RemoteError:
            switch e {
            case .wrongPassword: return APIError(.unprocessableContent, "login_refused", e.description)
            case .noAnswer: return APIError(.gatewayTimeout, "no_answer", e.description)
            case .unknownContact: return APIError(.notFound, "contact_not_found", e.description)
            case .undecodableReply: return APIError(.badGateway, "bad_reply", e.description)
            case .linkLost: return APIError(.serviceUnavailable, "link_lost", e.description)
            case .noRememberedPassword: return APIError(.badRequest, "no_remembered_password", e.description)
            case .noPasswordVault: return APIError(.internalServerError, "no_password_vault", e.description)
            }
        case let e as StoreError:
            switch e {
            case .notFound: return APIError(.notFound, "not_found", e.description)
            case .invalidArgument: return APIError(.badRequest, "bad_request", e.description)
            default: return APIError(.internalServerError, "store_error", e.description)
            }
        case let e as TransportError:
            return APIError(.serviceUnavailable, "link_error", e.description)
        default:
            return APIError(.internalServerError, "internal", "\(error)")
        }
    }

    static func session(_ e: SessionError) -> APIError {
        switch e {
        case .noAnswer: APIError(.gatewayTimeout, "no_answer", e.description)
        case .refused: APIError(.unprocessableContent, "refused_by_radio", e.description)
        case .linkClosed: APIError(.serviceUnavailable, "link_lost", e.description)
        case .unexpected, .undecodable: APIError(.badGateway, "bad_answer", e.description)
        }
    }

    static func messaging(_ e: MessagingError) -> APIError {
        switch e {
        case .emptyText, .textTooLong, .channelTextTooLong: APIError(.badRequest, "invalid_text", e.description)
        case .emptyChannel: APIError(.conflict, "empty_channel", e.description)
        case let .store(_, store): store.isNotFound ? APIError(.notFound, "not_found", e.description) : APIError(.internalServerError, "store_error", e.description)
        case let .command(_, session): APIError(session.statusFor, session.codeFor, e.description)
        case .unexpected: APIError(.internalServerError, "internal", e.description)
        case .noAck: APIError(.gatewayTimeout, "not_delivered", e.description)
        case .cancelled: APIError(.serviceUnavailable, "cancelled", e.description)
        }
    }
}

private extension SessionError {
    var statusFor: HTTPResponse.Status { APIError.session(self).status }
    var codeFor: String { APIError.session(self).code }
}

private extension StoreError {
    var isNotFound: Bool { if case .notFound = self { true } else { false } }
}

/// Runs a handler body, turning whatever it throws into an `APIError`.
func api<T: Sendable>(_ body: () async throws -> T) async throws(APIError) -> T {
    do {
        return try await body()
    } catch {
        throw APIError.from(error)
    }
}
