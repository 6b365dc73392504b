import CPahoMQTT
import Foundation

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
            var received = MQTTMessage(topic: topic, payload: payload, qos: qos, retain: retained)
            received.subscriptionIdentifiers = subscriptionIdentifiers(&message.pointee.properties)
            if let bridge = PahoBridge.from(context) {
                if let receive = bridge.receive { receive(received) } else { bridge.emit(.message(received)) }
            }
            var pointer: UnsafeMutablePointer<MQTTAsync_message>? = message
            MQTTAsync_freeMessage(&pointer)
        }
        MQTTAsync_free(topicName)
        return 1
    }

    static func subscriptionIdentifiers(_ properties: inout MQTTProperties) -> [Int] {
        let code = MQTTPROPERTY_CODE_SUBSCRIPTION_IDENTIFIER
        let count = MQTTProperties_propertyCount(&properties, code)
        guard count > 0 else { return [] }
        return (0..<count).map { Int(MQTTProperties_getNumericValueAt(&properties, code, $0)) }
    }

    static let succeeded: OnSuccess = { context, _ in finish(context, succeeded: true) }
    static let failed: OnFailure = { context, _ in finish(context, succeeded: false) }

    /// Reports how the call behind a ticket ended (both protocol versions' callbacks end here).
    static func finish(_ context: UnsafeMutableRawPointer?, succeeded: Bool) {
        guard let ticket = PahoTicket.take(context) else { return }
        switch ticket.purpose {
        case .publish(let sequence, let epoch):
            ticket.bridge.emit(succeeded ? .published(sequence: sequence, epoch: epoch) : .publishFailed(sequence: sequence, epoch: epoch))
        case .subscribe(let filter):
            ticket.bridge.emit(succeeded ? .subscribed(filter: filter) : .subscribeRefused(filter: filter))
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
