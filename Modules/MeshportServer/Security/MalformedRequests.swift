import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// hummingbird-websocket's HTTP/1 channel leaves NIO's error handling off and, while it still
/// waits for the first request head to decide on an upgrade, nothing answers a request NIO
/// cannot parse (a raw space in the path, a bad header): the client would wait forever and the
/// connection stay open. This channel is that one plus `MalformedRequestAnswer` at the end of
/// its pipeline.
struct GuardedUpgradeChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let metrics: ServerMetrics

    struct Value: ServerChildChannelValue {
        let inner: HTTP1WebSocketUpgradeChannel.Value
        let answered: AnsweredFlag
        var channel: any Channel { inner.channel }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let answer = MalformedRequestAnswer(metrics: metrics)
            try channel.pipeline.syncOperations.addHandler(answer)
            return Value(inner: value, answered: answer.answered)
        }
    }

    func handle(value: Value, logger: Logger) async {
        // A connection answered 400 here ends its upgrade negotiation with an error that
        // hummingbird-websocket logs as one; it is expected, so it is not logged.
        var quiet = logger
        quiet.handler = UnlessAnswered(base: logger.handler, answered: value.answered)
        await inner.handle(value: value.inner, logger: quiet)
    }
}

/// Passes log records on unless the connection was answered as malformed.
private struct UnlessAnswered: LogHandler {
    var base: any LogHandler
    let answered: AnsweredFlag

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }
    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        if !answered.isSet { base.log(event: event) }
    }
}

/// Answers `400 Bad Request` and closes when the HTTP parser fails before any request got
/// through; later parse errors are the HTTP handler's. Everything else passes untouched.
final class MalformedRequestAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    let answered = AnsweredFlag()
    private var requestSeen = false
    private let metrics: ServerMetrics

    init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        requestSeen = true
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !requestSeen, error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        requestSeen = true
        answered.set()
        metrics.rejected("malformed")
        let message = "malformed HTTP request: \(error)\n"
        var headers = HTTPHeaders()
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(message.utf8.count))
        let head = HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: message)))), promise: nil)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
        context.close(promise: nil)
    }
}

/// Set once a connection was answered as malformed; read by its log handler on another task.
final class AnsweredFlag: Sendable {
    private let flag = Atomic(false)

    func set() { flag.store(true, ordering: .releasing) }
    var isSet: Bool { flag.load(ordering: .acquiring) }
}
