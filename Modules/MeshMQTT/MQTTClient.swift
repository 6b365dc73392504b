import CPahoMQTT
import Foundation
import Logging

/// One connection to one broker through Paho's asynchronous client (libpaho-mqtt3as).
///
/// `start()` connects and keeps reconnecting with backoff for as long as the client lives;
/// every state change goes out on `stateUpdates()`. `publish` never waits for the broker: the
/// message joins the backlog (Backlog.swift) and goes out in order while connected (Outbox.swift):
/// a QoS 1 message leaves the backlog when the broker acknowledges it, at most `inFlightWindow`
/// unacknowledged at a time, so a lost connection resends from the oldest unacknowledged one
/// (at least once, duplicates possible); a QoS 0 one leaves it when Paho has queued it.
/// Subscriptions are made again on every connection.
/// Paho calls back on its own threads; `PahoBridge` turns each call into a value for this actor.
public actor MQTTClient {
    public let broker: MQTTBrokerURL
    public let clientID: String
    /// Messages from the broker on the filters given to `subscribe`.
    public nonisolated let messages: AsyncStream<MQTTMessage>
    public private(set) var state: MQTTConnectionState = .idle
    /// Filters the broker refused (SUBACK failure), until subscribed again.
    public private(set) var refusedFilters: Set<String> = []
    /// Filters the broker granted (SUBACK success) on the current connection.
    public private(set) var grantedFilters: Set<String> = []
    /// The last problem that did not stop the client: an acknowledged message that could not be
    /// removed from the backlog folder (the next process sends it again), or a message Paho
    /// refused to send (dropped, so it does not hold up the ones behind it). Nil while none.
    public private(set) var lastError: MQTTError?

    private let options: MQTTClientOptions
    private let bridge: PahoBridge
    private let incoming: AsyncStream<MQTTMessage>.Continuation
    private var handle: PahoHandle?
    private var outbox: Outbox
    private var username: String?
    private var password: String?
    private var subscriptions: [(filter: String, qos: MQTTQoS, identifier: Int?)] = []
    private var stateListeners: [UUID: AsyncStream<MQTTConnectionState>.Continuation] = [:]
    private var eventTask: Task<Void, Never>?
    private var retryTask: Task<Void, Never>?
    private var attempt = 0
    private var failures = 0
    private var connected = false
    /// Paho's queue was full: sending resumes shortly (`resumeSending`).
    private var resumeTask: Task<Void, Never>?
    private var incomingDropped = 0
    /// Problems that do not stop the client (`lastError`), and refused subscriptions.
    private let logger: Logger

    /// Creates the client and loads the backlog a previous process left; nothing is sent
    /// before `start()`.
    public init(broker: MQTTBrokerURL, options: MQTTClientOptions) throws(MQTTError) {
        self.broker = broker
        self.options = options
        clientID = broker.clientID ?? options.clientID
        username = broker.username
        password = broker.password
        var logger = Logger(label: "meshport.mqtt")
        logger[metadataKey: "broker"] = "\(broker)"
        self.logger = logger
        outbox = Outbox(backlog: try Backlog(capacity: options.backlogCapacity, folder: options.backlogFolder), window: options.inFlightWindow)
        bridge = PahoBridge(receive: options.receive)
        let buffer = max(1, options.incomingBuffer)
        (messages, incoming) = AsyncStream.makeStream(of: MQTTMessage.self, bufferingPolicy: .bufferingOldest(buffer))

        Self.libraryReady()
        var created: MQTTAsync?
        var createOptions = cpaho_create_options()
        createOptions.MQTTVersion = options.session.isMQTT5 ? MQTTVERSION_5 : MQTTVERSION_3_1_1
        // Paho counts its queued commands against this even while connected; when it is full,
        // the rest wait in the backlog (`pump`).
        createOptions.maxBufferedMessages = Int32(max(Self.pahoQueue, 2 * options.inFlightWindow))
        let strings = CCopies()
        let rc = MQTTAsync_createWithOptions(&created, strings.copy(broker.pahoServerURI), strings.copy(clientID),
                                             MQTTCLIENT_PERSISTENCE_NONE, nil, &createOptions)
        guard rc == MQTTASYNC_SUCCESS, let created else { throw .library(operation: "create a client for \(broker)", code: rc) }
        handle = PahoHandle(pointer: created)
        let callbacks = MQTTAsync_setCallbacks(created, bridge.context, PahoCallbacks.connectionLost, PahoCallbacks.messageArrived, nil)
        guard callbacks == MQTTASYNC_SUCCESS else { throw .library(operation: "set the client's callbacks", code: callbacks) }
    }

    deinit {
        if let handle {
            var destroyed: MQTTAsync? = handle.pointer
            MQTTAsync_destroy(&destroyed)
        }
        bridge.finish()
        incoming.finish()
        for listener in stateListeners.values { listener.finish() }
    }

    /// Starts connecting; reconnects by itself from then on.
    public func start() {
        guard eventTask == nil, handle != nil else { return }
        let events = bridge.events
        eventTask = Task { [weak self] in
            for await event in events { await self?.handle(event) }
        }
        connect()
    }

    /// Each state from now on, starting with the current one.
    public func stateUpdates() -> AsyncStream<MQTTConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTConnectionState.self)
        let id = UUID()
        stateListeners[id] = continuation
        continuation.yield(state)
        if state == .closed { continuation.finish() }
        continuation.onTermination = { _ in Task { await self.removeListener(id) } }
        return stream
    }

    /// Credentials for the next connection attempt (a renewed token is a new password); the
    /// current connection, if any, keeps the ones it was made with.
    public func updateCredentials(username: String?, password: String?) {
        self.username = username
        self.password = password
    }

    /// Queues `message` for the broker. Throws when the topic is not valid, the client is
    /// closed, or a QoS 1 message cannot be written to the backlog folder.
    public func publish(_ message: MQTTMessage) throws(MQTTError) {
        guard handle != nil else { throw .closed }
        try TopicRules.checkTopic(message.topic)
        try outbox.append(message)
        pump()
    }

    /// Subscribes to `filter` now (if connected) and on every later connection. Shared
    /// subscriptions (`$share/GROUP/FILTER`) are passed through as they are. `identifier`
    /// (1 to 268,435,455; MQTT 5 sessions only) comes back with each message the subscription
    /// brings, in `MQTTMessage.subscriptionIdentifiers`.
    public func subscribe(_ filter: String, qos: MQTTQoS = .atLeastOnce, identifier: Int? = nil) throws(MQTTError) {
        guard handle != nil else { throw .closed }
        try TopicRules.checkFilter(filter)
        if let identifier {
            guard options.session.isMQTT5 else {
                throw .invalidTopic(topic: filter, reason: "a subscription identifier needs an MQTT 5 session (MQTTSession.persistent)")
            }
            guard (1...268_435_455).contains(identifier) else {
                throw .invalidTopic(topic: filter, reason: "a subscription identifier is 1 to 268435455, not \(identifier)")
            }
        }
        subscriptions.removeAll { $0.filter == filter }
        subscriptions.append((filter, qos, identifier))
        if connected { sendSubscribe(filter, qos: qos, identifier: identifier) }
    }

    public var stats: MQTTBacklogStats {
        MQTTBacklogStats(queued: outbox.backlog.count, inFlight: outbox.inFlight.count, delivered: outbox.delivered,
                         dropped: outbox.backlog.dropped, capacity: outbox.backlog.capacity, incomingDropped: incomingDropped)
    }

    /// Disconnects cleanly, so the broker does not publish the will, and stops reconnecting;
    /// waits at most a second for the DISCONNECT to go out. Unacknowledged QoS 1 messages stay
    /// in the backlog folder for the next client. (A client released without `close()` drops
    /// its connection like a dead process: the broker publishes the will.)
    public func close() async {
        guard let handle else { return }
        retryTask?.cancel()
        eventTask?.cancel()
        resumeTask?.cancel()
        var disconnect = cpaho_disconnect_options()
        disconnect.timeout = 1000
        if MQTTAsync_disconnect(handle.pointer, &disconnect) == MQTTASYNC_SUCCESS {
            for _ in 0..<100 where MQTTAsync_isConnected(handle.pointer) != 0 {
                do { try await Task.sleep(for: .milliseconds(10)) } catch { break }
            }
        }
        // Another call may have closed it while this one waited.
        guard self.handle != nil else { return }
        var destroyed: MQTTAsync? = handle.pointer
        MQTTAsync_destroy(&destroyed)
        self.handle = nil
        connected = false
        setState(.closed)
        bridge.finish()
        incoming.finish()
        for listener in stateListeners.values { listener.finish() }
        stateListeners = [:]
    }

    // MARK: - Connecting

    private func connect() {
        guard let handle else { return }
        attempt += 1
        setState(.connecting(attempt: attempt))
        bridge.tlsError.withLock { $0 = nil }
        let strings = CCopies()
        var connect: MQTTAsync_connectOptions
        do {
            connect = try PahoConnectOptions.make(session: options.session, webSocket: broker.scheme.usesWebSocket)
        } catch {
            scheduleRetry(after: error)
            return
        }
        defer { PahoConnectOptions.release(&connect) }
        connect.keepAliveInterval = Int32(broker.keepAliveSeconds)
        connect.automaticReconnect = 0
        connect.connectTimeout = Int32(max(1, options.connectTimeout.components.seconds))
        connect.username = strings.copy(username)
        connect.password = strings.copy(password)
        connect.context = bridge.context

        // The will and TLS options are pointed to from `connect`, so they get fixed addresses.
        let will = UnsafeMutablePointer<MQTTAsync_willOptions>.allocate(capacity: 1)
        let ssl = UnsafeMutablePointer<MQTTAsync_SSLOptions>.allocate(capacity: 1)
        defer {
            will.deallocate()
            ssl.deallocate()
        }
        will.initialize(to: cpaho_will_options())
        ssl.initialize(to: cpaho_ssl_options())
        if let message = options.will {
            will.pointee.topicName = strings.copy(message.topic)
            will.pointee.qos = message.qos.rawValue
            will.pointee.retained = message.retain ? 1 : 0
            // Binary payload (struct version 1); Paho copies it during the connect call.
            will.pointee.payload.len = Int32(message.payload.count)
            will.pointee.payload.data = strings.copy(bytes: message.payload)
            connect.will = will
        }
        if broker.scheme.usesTLS {
            ssl.pointee.trustStore = strings.copy(broker.caFile)
            ssl.pointee.enableServerCertAuth = 1
            ssl.pointee.verify = 1
            ssl.pointee.ssl_error_cb = PahoCallbacks.tlsError
            ssl.pointee.ssl_error_context = bridge.context
            connect.ssl = ssl
        }
        let rc = MQTTAsync_connect(handle.pointer, &connect)
        if rc != MQTTASYNC_SUCCESS {
            scheduleRetry(after: .library(operation: "start connecting to \(broker)", code: rc))
        }
    }

    private func scheduleRetry(after error: MQTTError) {
        guard handle != nil else { return }
        connected = false
        failures += 1
        let exponent = min(failures - 1, 16)
        let delay = min(options.retryMax, options.retryMin * (1 << exponent))
        setState(.waiting(error: error, retryIn: delay))
        retryTask?.cancel()
        retryTask = Task { [weak self] in
            do { try await Task.sleep(for: delay) } catch { return }
            await self?.connect()
        }
    }

    /// Paho's report of a failed attempt as the error a person can act on.
    private func connectError(code: Int32, detail: String?) -> MQTTError {
        let name = broker.description
        switch code {
        case 1: return .protocolRejected(broker: name)
        case 2: return .clientIDRejected(broker: name, clientID: clientID)
        case 3: return .serverUnavailable(broker: name)
        case 4: return .badCredentials(broker: name, username: username)
        case 5: return .notAuthorized(broker: name, username: username)
        default:
            if let tls = bridge.tlsError.withLock({ $0 }) { return .tls(broker: name, detail: tls) }
            return .unreachable(broker: name, detail: detail ?? "Paho return code \(code)")
        }
    }

    // MARK: - Events

    private func handle(_ event: PahoEvent) {
        switch event {
        case .connected:
            connected = true
            failures = 0
            attempt = 0
            outbox.connected()
            setState(.connected)
            for subscription in subscriptions { sendSubscribe(subscription.filter, qos: subscription.qos, identifier: subscription.identifier) }
            pump()
        case .connectFailed(let code, let detail):
            scheduleRetry(after: connectError(code: code, detail: detail))
        case .connectionLost(let cause):
            outbox.connectionLost()
            grantedFilters = []
            scheduleRetry(after: .connectionLost(broker: broker.description, detail: cause ?? "the broker closed the connection"))
        case .published(let sequence, _):
            do { try outbox.acknowledged(sequence) } catch { problem(error) }
            pump()
        case .publishFailed(let sequence, let epoch):
            if outbox.failed(sequence, epoch: epoch) { pump() }
        case .subscribed(let filter):
            refusedFilters.remove(filter)
            grantedFilters.insert(filter)
        case .subscribeRefused(let filter):
            logger.warning("The broker refused the subscription to \(filter).")
            refusedFilters.insert(filter)
            grantedFilters.remove(filter)
        case .message(let message):
            if case .dropped = incoming.yield(message) { incomingDropped += 1 }
        }
    }

    /// Hands backlog messages to Paho in order while the outbox lets more go and Paho takes them.
    private func pump() {
        guard connected, let handle else { return }
        while let entry = outbox.next() {
            let rc = send(entry, on: handle)
            switch rc {
            case MQTTASYNC_SUCCESS:
                do { try outbox.handedOver(entry) } catch { problem(error) }
            case MQTTASYNC_MAX_BUFFERED_MESSAGES:
                // Paho's queue is full (the socket is backed up): the rest wait in the backlog.
                resumeSending()
                return
            case MQTTASYNC_DISCONNECTED:
                // The connection-lost event resends from the oldest unacknowledged message.
                return
            default:
                problem(.library(operation: "send a message to \(entry.message.topic)", code: rc))
                do { try outbox.refused(entry) } catch { problem(error) }
            }
        }
    }

    /// One message to Paho. A QoS 1 message carries a ticket for its acknowledgement; a QoS 0
    /// one none (Outbox.swift says why).
    private func send(_ entry: Backlog.Entry, on handle: PahoHandle) -> Int32 {
        var message = cpaho_message()
        message.qos = entry.message.qos.rawValue
        message.retained = entry.message.retain ? 1 : 0
        return entry.message.payload.withUnsafeBytes { bytes in
            message.payload = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
            message.payloadlen = Int32(bytes.count)
            guard entry.message.qos == .atLeastOnce else {
                return MQTTAsync_sendMessage(handle.pointer, entry.message.topic, &message, nil)
            }
            let ticket = PahoTicket(bridge: bridge, purpose: .publish(sequence: entry.sequence, epoch: outbox.epoch))
            var response = cpaho_response_options()
            PahoCallbacks.arm(&response, mqtt5: options.session.isMQTT5)
            response.context = ticket.retainedContext
            let rc = MQTTAsync_sendMessage(handle.pointer, entry.message.topic, &message, &response)
            // Paho did not take the call, so it calls neither callback.
            if rc != MQTTASYNC_SUCCESS { _ = PahoTicket.take(response.context) }
            return rc
        }
    }

    /// Tries again shortly while Paho's queue is full; Paho says nothing when it has room.
    private func resumeSending() {
        guard resumeTask == nil else { return }
        resumeTask = Task { [weak self] in
            do { try await Task.sleep(for: Self.resumeDelay) } catch { return }
            await self?.resumed()
        }
    }

    private func resumed() {
        resumeTask = nil
        pump()
    }

    /// Commands Paho may queue; at 100 000 messages/s a full queue drains in about 40 ms.
    private static let pahoQueue = 4096

    /// Paho's global set-up, once, before the first client. Left to itself Paho initialises
    /// OpenSSL fully at the first client, TLS or not (its error strings and ciphers: 3 MB of
    /// libcrypto resident in a gateway that only speaks mqtt://). OpenSSL 1.1 and later set
    /// themselves up when the first TLS connection needs them, so Paho is told not to.
    private static let setUp: Void = {
        var options = cpaho_init_options()
        options.do_openssl_init = 0
        MQTTAsync_global_init(&options)
    }()

    private static func libraryReady() { _ = setUp }
    private static let resumeDelay = Duration.milliseconds(5)

    private func sendSubscribe(_ filter: String, qos: MQTTQoS, identifier: Int?) {
        guard let handle else { return }
        let ticket = PahoTicket(bridge: bridge, purpose: .subscribe(filter: filter))
        var response = cpaho_response_options()
        PahoCallbacks.arm(&response, mqtt5: options.session.isMQTT5)
        response.context = ticket.retainedContext
        if let identifier { _ = cpaho_add_subscription_identifier(&response.properties, Int32(identifier)) }
        // Paho copies the properties into its command.
        defer { MQTTProperties_free(&response.properties) }
        let rc = MQTTAsync_subscribe(handle.pointer, filter, qos.rawValue, &response)
        if rc != MQTTASYNC_SUCCESS {
            _ = PahoTicket.take(response.context)
            logger.warning("\(MQTTError.library(operation: "subscribe to \(filter)", code: rc).description)")
            refusedFilters.insert(filter)
        }
    }

    /// Keeps `error` as `lastError` and says it in the log.
    private func problem(_ error: MQTTError) {
        lastError = error
        logger.warning("\(error.description)")
    }

    private func setState(_ newState: MQTTConnectionState) {
        state = newState
        for listener in stateListeners.values { listener.yield(newState) }
    }

    private func removeListener(_ id: UUID) { stateListeners[id] = nil }
}

/// Paho's client handle. Paho locks inside every call, so the handle may be used from any
/// thread; only this actor (and its deinit) uses it.
struct PahoHandle: @unchecked Sendable {
    let pointer: MQTTAsync
}
