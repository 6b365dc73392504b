import CPahoMQTT

/// Paho's connect options for a session kind: MQTT 3.1.1 with a clean session, or MQTT 5 with
/// clean start off and a session expiry (Paho refuses `cleansession` on MQTT 5 and wants the
/// MQTT 5 callbacks there).
enum PahoConnectOptions {
    static func make(session: MQTTSession, webSocket: Bool) throws(MQTTError) -> MQTTAsync_connectOptions {
        switch session {
        case .clean:
            var connect = webSocket ? cpaho_connect_options_ws() : cpaho_connect_options()
            connect.cleansession = 1
            connect.MQTTVersion = MQTTVERSION_3_1_1
            connect.onSuccess = PahoCallbacks.connected
            connect.onFailure = PahoCallbacks.connectFailed
            return connect
        case .persistent(let expirySeconds):
            var connect = webSocket ? cpaho_connect_options5_ws() : cpaho_connect_options5()
            connect.cleanstart = 0
            // Paho copies the properties during the connect call; `release` frees these.
            let properties = UnsafeMutablePointer<MQTTProperties>.allocate(capacity: 1)
            properties.initialize(to: cpaho_properties())
            connect.connectProperties = properties
            let rc = cpaho_add_session_expiry(properties, expirySeconds)
            guard rc == 0 else {
                release(&connect)
                throw .library(operation: "set the session expiry", code: rc)
            }
            connect.onSuccess5 = PahoCallbacks.connected5
            connect.onFailure5 = PahoCallbacks.connectFailed5
            return connect
        }
    }

    static func release(_ connect: inout MQTTAsync_connectOptions) {
        guard let properties = connect.connectProperties else { return }
        MQTTProperties_free(properties)
        properties.deallocate()
        connect.connectProperties = nil
    }
}
