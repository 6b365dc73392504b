import CPahoMQTT

/// The MQTT 5 forms of the C callbacks: Paho refuses the 3.1.1 ones on an MQTT 5 client's
/// subscribe and publish calls, and reports CONNACK and SUBACK refusals as reason codes.
extension PahoCallbacks {
    typealias OnSuccess5 = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<MQTTAsync_successData5>?) -> Void
    typealias OnFailure5 = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<MQTTAsync_failureData5>?) -> Void

    static let connected5: OnSuccess5 = { context, _ in
        PahoBridge.from(context)?.emit(.connected)
    }

    static let connectFailed5: OnFailure5 = { context, response in
        let reason = response.map { Int($0.pointee.reasonCode.rawValue) } ?? 0
        let code = reason >= 0x80 ? connackCode(reason: reason) : response?.pointee.code ?? MQTTASYNC_FAILURE
        let detail = response?.pointee.message.map { String(cString: $0) }
        PahoBridge.from(context)?.emit(.connectFailed(code: code, detail: detail))
    }

    // Paho 1.3.12 calls onFailure5 for a SUBACK reason code of 0x80 or more.
    static let succeeded5: OnSuccess5 = { context, _ in finish(context, succeeded: true) }
    static let failed5: OnFailure5 = { context, _ in finish(context, succeeded: false) }

    /// Points `response` at the success and failure callbacks of the client's protocol version.
    static func arm(_ response: inout MQTTAsync_responseOptions, mqtt5: Bool) {
        if mqtt5 {
            response.onSuccess5 = succeeded5
            response.onFailure5 = failed5
        } else {
            response.onSuccess = succeeded
            response.onFailure = failed
        }
    }

    /// An MQTT 5 CONNACK reason code as the 3.1.1 return code meaning the same, so one mapping
    /// (`MQTTClient.connectError`) names the refusal for both versions.
    static func connackCode(reason: Int) -> Int32 {
        switch reason {
        case 0x84: 1   // unsupported protocol version
        case 0x85: 2   // client identifier not valid
        case 0x88, 0x89: 3   // server unavailable, server busy
        case 0x86: 4   // bad user name or password
        case 0x87: 5   // not authorized
        default: Int32(reason)
        }
    }
}
