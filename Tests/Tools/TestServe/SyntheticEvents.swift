import Hummingbird
import MeshportServer

/// `POST /api/test/events {"count": N, "perSecond": R, "padding": P}`: N events of type
/// "test", their `text` 0, 1, ... N-1, at R per second (or as fast as they can be published),
/// each with P bytes of `pad` (none by default), to load the events stream without a radio
/// that could make them.
struct SyntheticEvents: Decodable {
    let count: Int
    /// Events per second; nil: as fast as they can be published.
    let perSecond: Double?
    /// Bytes of filler per event: larger events fill a stalled client's socket buffers sooner.
    let padding: Int?

    static func addRoute(to router: Router<APIRequestContext>, publisher: EventPublisher) {
        router.post("/api/test/events") { request, context in
            let ask = try await request.decode(as: SyntheticEvents.self, context: context)
            guard (1...1_000_000).contains(ask.count) else { throw HTTPError(.badRequest, message: "count must be 1 to 1,000,000") }
            guard (0...65_536).contains(ask.padding ?? 0) else { throw HTTPError(.badRequest, message: "padding must be 0 to 65,536 bytes") }
            let pad = ask.padding.map { #","pad":""# + String(repeating: "x", count: $0) + "\"" } ?? ""
            let start = ContinuousClock.now
            for n in 0..<ask.count {
                if let rate = ask.perSecond, rate > 0 {
                    let due = start + .seconds(Double(n) / rate)
                    if due > .now { try await Task.sleep(until: due) }
                }
                // Not a radio's event, so not in the event schema: the line goes straight out.
                publisher.broadcaster.publish(#"{"text":"\#(n)","type":"test"\#(pad)}"#)
            }
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"ok":true}"#)))
        }
    }
}
