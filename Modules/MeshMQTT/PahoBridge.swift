import CPahoMQTT
import Foundation
import Synchronization

/// What Paho reports from its own threads, as values for the client actor.
enum PahoEvent: Sendable {
    case connected
    case connectFailed(code: Int32, detail: String?)
    case connectionLost(cause: String?)
    case published(sequence: UInt64, epoch: Int)
    case publishFailed(sequence: UInt64, epoch: Int)
    case subscribed(filter: String)
    case subscribeRefused(filter: String)
    case message(MQTTMessage)
}

/// The context Paho's C callbacks get: they turn what happened into a `PahoEvent` on one
/// stream, and copy every byte they are handed before returning.
final class PahoBridge: Sendable {
    let events: AsyncStream<PahoEvent>
    private let continuation: AsyncStream<PahoEvent>.Continuation
    /// What OpenSSL said during the current connection attempt (Paho reports every failed
    /// attempt alike; this tells a TLS failure from an unreachable broker).
    let tlsError = Mutex<String?>(nil)

    init() {
        (events, continuation) = AsyncStream.makeStream(of: PahoEvent.self)
    }

    func emit(_ event: PahoEvent) { continuation.yield(event) }
    func finish() { continuation.finish() }

    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ context: UnsafeMutableRawPointer?) -> PahoBridge? {
        guard let context else { return nil }
        return Unmanaged<PahoBridge>.fromOpaque(context).takeUnretainedValue()
    }
}

/// One call's context: which bridge to tell, and what the call was about. Retained for Paho,
/// released by whichever of onSuccess and onFailure it calls (it calls one of them, also for
/// calls still pending when the client is destroyed).
final class PahoTicket: Sendable {
    enum Purpose: Sendable {
        case publish(sequence: UInt64, epoch: Int)
        case subscribe(filter: String)
    }

    let bridge: PahoBridge
    let purpose: Purpose

    init(bridge: PahoBridge, purpose: Purpose) {
        self.bridge = bridge
        self.purpose = purpose
    }

    var retainedContext: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    static func take(_ context: UnsafeMutableRawPointer?) -> PahoTicket? {
        guard let context else { return nil }
        return Unmanaged<PahoTicket>.fromOpaque(context).takeRetainedValue()
    }
}

/// The C callbacks. None may capture anything: all they know comes through `context`.
enum PahoCallbacks {
    typealias OnSuccess = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<MQTTAsync_successData>?) -> Void
    typealias OnFailure = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<MQTTAsync_failureData>?) -> Void
    typealias ConnectionLost = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<CChar>?) -> Void
    typealias MessageArrived = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<CChar>?, Int32,
                                               UnsafeMutablePointer<MQTTAsync_message>?) -> Int32

    static let connected: OnSuccess = { context, _ in
        PahoBridge.from(context)?.emit(.connected)
    }

    static let connectFailed: OnFailure = { context, response in
        let code = response?.pointee.code ?? MQTTASYNC_FAILURE
        let detail = response?.pointee.message.map { String(cString: $0) }
        PahoBridge.from(context)?.emit(.connectFailed(code: code, detail: detail))
    }

    static let connectionLost: ConnectionLost = { context, cause in
        let text = cause.map { String(cString: $0) }
        if let cause { MQTTAsync_free(cause) }
        PahoBridge.from(context)?.emit(.connectionLost(cause: text))
    }

    static let messageArrived: MessageArrived = { context, topicName, topicLength, message in
        guard let topicName else { return 1 }
        let topic = topicLength > 0
            ? String(decoding: UnsafeRawBufferPointer(start: topicName, count: Int(topicLength)), as: UTF8.self)
            : String(cString: topicName)
        if let message {
            let length = Int(message.pointee.payloadlen)
            let payload = length > 0 && message.pointee.payload != nil
                ? Array(UnsafeRawBufferPointer(start: message.pointee.payload, count: length)) : []
            let qos: MQTTQoS = message.pointee.qos == 0 ? .atMostOnce : .atLeastOnce
            let retained = message.pointee.retained != 0
            PahoBridge.from(context)?.emit(.message(MQTTMessage(topic: topic, payload: payload, qos: qos, retain: retained)))
            var pointer: UnsafeMutablePointer<MQTTAsync_message>? = message
            MQTTAsync_freeMessage(&pointer)
        }
        MQTTAsync_free(topicName)
        return 1
    }

    static let succeeded: OnSuccess = { context, _ in
        guard let ticket = PahoTicket.take(context) else { return }
        switch ticket.purpose {
        case .publish(let sequence, let epoch): ticket.bridge.emit(.published(sequence: sequence, epoch: epoch))
        case .subscribe(let filter): ticket.bridge.emit(.subscribed(filter: filter))
        }
    }

    static let failed: OnFailure = { context, _ in
        guard let ticket = PahoTicket.take(context) else { return }
        switch ticket.purpose {
        case .publish(let sequence, let epoch): ticket.bridge.emit(.publishFailed(sequence: sequence, epoch: epoch))
        case .subscribe(let filter): ticket.bridge.emit(.subscribeRefused(filter: filter))
        }
    }

    /// OpenSSL's error lines during a handshake; the last one is kept.
    static let tlsError: @convention(c) (UnsafePointer<CChar>?, Int, UnsafeMutableRawPointer?) -> Int32 = { text, length, context in
        guard let text, let bridge = PahoBridge.from(context) else { return 0 }
        let line = String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
        bridge.tlsError.withLock { $0 = line.trimmingCharacters(in: .whitespacesAndNewlines) }
        return 0
    }
}
