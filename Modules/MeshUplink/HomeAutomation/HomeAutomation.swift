import Logging
import MeshCodec
import MeshMQTT
import MeshServices

/// The optional home automation side of an uplink (Docs/gateway.md, "Home automation"), on the
/// uplink's own broker connection. With `messages` on, every message the radio receives or
/// sends, and each status change of a sent one, goes to `meshport/{KEY}/messages` as the same
/// JSON event `/api/events` sends. With `commands` on, `meshport/{KEY}/send` is subscribed to:
/// each command sends a DM or a channel message through a `Messenger`, and each step of its
/// outcome goes to `meshport/{KEY}/sent`. A bad command is answered there and logged; nothing
/// a broker sends can stop the uplink.
actor HomeAutomation {
    private let context: ServiceContext
    private let client: MQTTClient
    private let topics: HomeTopics
    private let qos: MQTTQoS
    private let logger: Logger
    private let messenger: Messenger
    private let ownsMessenger: Bool
    private var tasks: [Task<Void, Never>] = []
    /// DMs whose ACK is awaited, by message id.
    private var awaiting: [Int64: Task<Void, Never>] = [:]
    /// The ids of the last commands run: QoS 1 delivers at least once, and a command the broker
    /// brings again must not send its message again.
    private var recentIDs = RecentIDs(capacity: 1000)

    /// `messenger`: the front end's, shared (it stays running when this stops); nil makes one
    /// of its own.
    init(context: ServiceContext, messenger: Messenger?, client: MQTTClient, qos: MQTTQoS, logger: Logger) {
        self.context = context
        self.client = client
        self.qos = qos
        self.logger = logger
        topics = HomeTopics(publicKey: context.selfInfo.publicKey)
        self.messenger = messenger ?? Messenger(context: context)
        ownsMessenger = messenger == nil
    }

    /// Starts what the target turns on; call before the client connects, so the subscription
    /// is made with the first connection.
    func start(messages: Bool, commands: Bool) async throws(MQTTError) {
        if messages {
            let events = context.events.subscribe()
            tasks.append(Task { [weak self] in
                for await event in events { await self?.publish(event) }
            })
        }
        if commands {
            try await client.subscribe(topics.send, qos: qos)
            let incoming = client.messages, send = topics.send
            tasks.append(Task { [weak self] in
                for await message in incoming where message.topic == send { await self?.run(message.payload) }
            })
        }
    }

    func stop() async {
        for task in tasks + awaiting.values { task.cancel() }
        tasks = []
        awaiting = [:]
        if ownsMessenger { await messenger.stop() }
    }

    private func publish(_ event: ClientEvent) async {
        switch event {
        case .messageReceived, .messageStatus: break
        default: return
        }
        do {
            try await client.publish(MQTTMessage(topic: topics.messages, text: try EventJSON(EventJSON.Body(event)).line(), qos: qos))
        } catch {
            logger.warning("home automation: a message event could not be queued for \(topics.messages): \(error)")
        }
    }

    /// One command: read, sent, and its first outcome published; a DM's delivery is followed
    /// in the background.
    private func run(_ payload: [UInt8]) async {
        let command: HomeCommand
        do throws(HomeCommandError) {
            command = try HomeCommand(decoding: payload)
        } catch {
            if case let .badCommand(id, _) = error { await answer(HomeOutcome(id: id, result: .rejected, failure: error)) }
            logger.warning("home automation: a command on \(topics.send) was rejected: \(error)")
            return
        }
        if let id = command.id, !recentIDs.insert(id) {
            logger.notice("home automation: command \"\(id)\" on \(topics.send) came again (a QoS 1 redelivery, or a reused id); it was not sent twice")
            return
        }
        do throws(HomeCommandError) {
            switch command.recipient {
            case let .contact(query):
                let key = try await contactKey(query)
                let report: DeliveryReport
                do throws(MessagingError) { report = try await messenger.send(command.text, to: key, wait: false) } catch { throw .messaging(error) }
                await answer(HomeOutcome(id: command.id, result: .accepted, message: MessageJSON(report.message)))
                follow(report.message.id, command: command)
            case let .channel(slot):
                do throws(MessagingError) {
                    let sent = try await messenger.sendChannel(command.text, channel: slot)
                    await answer(HomeOutcome(id: command.id, result: .sent, message: MessageJSON(sent)))
                } catch {
                    throw .messaging(error)
                }
            }
        } catch {
            await answer(HomeOutcome(id: command.id, result: error.savedNothing ? .rejected : .failed, failure: error))
            logger.warning("home automation: the command on \(topics.send) sent nothing: \(error)")
        }
    }

    private func contactKey(_ query: String) async throws(HomeCommandError) -> PublicKey {
        do {
            return try await ContactsService(context: context).resolve(query).publicKey
        } catch let error as ContactsError {
            throw .contact(error)
        } catch {
            throw .contactLookup(query: query, reason: "\(error)")
        }
    }

    /// Publishes `delivered` or `failed` once the DM's tracking ends.
    private func follow(_ id: Int64, command: HomeCommand) {
        awaiting[id] = Task { [weak self, messenger] in
            guard let report = await messenger.outcome(of: id) else { return }
            await self?.settled(report, command: command)
        }
    }

    private func settled(_ report: DeliveryReport, command: HomeCommand) async {
        awaiting[report.message.id] = nil
        switch report.outcome {
        case .delivered:
            await answer(HomeOutcome(id: command.id, result: .delivered, message: MessageJSON(report.message)))
        case let .failed(error):
            await answer(HomeOutcome(id: command.id, result: .failed, failure: .messaging(error), message: MessageJSON(report.message)))
            logger.warning("home automation: message \(report.message.id) sent from \(topics.send) failed: \(error)")
        case .inFlight:
            break
        }
    }

    private func answer(_ outcome: HomeOutcome) async {
        do {
            try await client.publish(MQTTMessage(topic: topics.sent, payload: try outcome.payload(), qos: qos))
        } catch {
            logger.warning("home automation: an outcome could not be queued for \(topics.sent): \(error)")
        }
    }
}
