import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import MeshCodec
import MeshRegion
import MeshStore

/// The request context of every route: Hummingbird's basics plus the WebSocket hand-off.
package struct APIRequestContext: RequestContext, WebSocketRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let webSocket: WebSocketHandlerReference<Self>

    package init(source: Source) {
        coreContext = .init(source: source)
        webSocket = .init()
    }

    /// Bodies are read with `Served.body`, which applies the configured limit; this is
    /// only Hummingbird's own ceiling.
    package var maxUploadSize: Int { 1 << 20 }
}

/// What the handlers share: the radios, the store and the server's settings.
struct Served: Sendable {
    let radios: [ServedRadio]
    let store: MeshStore
    let publisher: EventPublisher
    let metrics: ServerMetrics
    let policy: SecurityPolicy
    /// `serve --history`: the region's PostgreSQL history; nil without it.
    let region: RegionHistory?
    let encoder: JSONEncoder

    init(radios: [ServedRadio], store: MeshStore, publisher: EventPublisher, metrics: ServerMetrics, policy: SecurityPolicy,
         region: RegionHistory? = nil) {
        self.radios = radios
        self.region = region
        self.store = store
        self.publisher = publisher
        self.metrics = metrics
        self.policy = policy
        encoder = Self.makeEncoder()
    }

    /// The API's JSON: sorted keys, slashes as they are.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The radio the path's `{radio}` names.
    func radio(_ context: APIRequestContext) throws(APIError) -> ServedRadio {
        let id = context.parameters.get("radio") ?? ""
        guard let index = Int(id), radios.indices.contains(index), String(index) == id else {
            throw .unknownRadio(id, known: radios.count)
        }
        return radios[index]
    }

    func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws(APIError) -> Response {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw APIError(.internalServerError, "internal", "the answer cannot be encoded: \(error)")
        }
        return json(bytes: data, status: status)
    }

    /// An answer already written as JSON.
    func json(bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The JSON body, read up to the configured limit (a larger one is 413 even without a
    /// Content-Length), decoded as `T` (anything else is 400 saying which field).
    func body<T: Decodable>(_ type: T.Type, _ request: Request) async throws(APIError) -> T {
        try decode(type, try await collect(request))
    }

    /// The JSON body, or `empty` when the request has none (a route whose fields all have defaults).
    func body<T: Decodable>(_ type: T.Type, _ request: Request, whenEmpty empty: T) async throws(APIError) -> T {
        let buffer = try await collect(request)
        return buffer.readableBytes == 0 ? empty : try decode(type, buffer)
    }

    private func collect(_ request: Request) async throws(APIError) -> ByteBuffer {
        var request = request
        do {
            return try await request.collectBody(upTo: policy.maxBodyBytes)
        } catch {
            metrics.rejected("body_size")
            throw APIError(.contentTooLarge, "body_too_large", "the request body is larger than \(policy.maxBodyBytes) bytes")
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws(APIError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let DecodingError.keyNotFound(key, _) {
            throw .badRequest("the JSON body has no \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .badRequest("the JSON body's \(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type: \(context.debugDescription)")
        } catch {
            throw .badRequest("the body is not the JSON expected: \(error)")
        }
    }

    // MARK: Parameters

    func key(_ context: APIRequestContext, _ name: String = "key") throws(APIError) -> PublicKey {
        let text = context.parameters.get(name) ?? ""
        guard let key = PublicKey(hex: text) else { throw .badRequest("\(name) \"\(text)\" is not a public key: 64 hex digits expected") }
        return key
    }

    func channelIndex(_ context: APIRequestContext) throws(APIError) -> UInt8 {
        let text = context.parameters.get("index") ?? ""
        guard let index = UInt8(text) else { throw .badRequest("channel \"\(text)\" is not a slot number (0-255)") }
        return index
    }

    func limit(_ request: Request, default fallback: Int, max: Int) throws(APIError) -> Int {
        guard let text = request.uri.queryParameters.get("limit") else { return fallback }
        guard let n = Int(text), (1...max).contains(n) else { throw .badRequest("limit \"\(text)\" must be a number from 1 to \(max)") }
        return n
    }

    func offset(_ request: Request) throws(APIError) -> Int {
        guard let text = request.uri.queryParameters.get("offset") else { return 0 }
        guard let n = Int(text), n >= 0 else { throw .badRequest("offset \"\(text)\" must be a number from 0 up") }
        return n
    }

    func cursor(_ request: Request) throws(APIError) -> TimelineCursor? {
        guard let text = request.uri.queryParameters.get("before") else { return nil }
        guard let cursor = Cursor.decode(text) else { throw .badRequest("before \"\(text)\" is not a cursor from an earlier page") }
        return cursor
    }
}

/// Page cursors as clients see them: "TIMESTAMP_ID", opaque to them.
enum Cursor {
    static func encode(_ c: TimelineCursor) -> String { "\(c.timestamp)_\(c.id)" }

    static func decode(_ text: String) -> TimelineCursor? {
        let parts = text.split(separator: "_")
        guard parts.count == 2, let t = Int64(parts[0]), let id = Int64(parts[1]) else { return nil }
        return TimelineCursor(timestamp: t, id: id)
    }
}
