import Foundation
import Logging
import MeshCodec
import MeshGateway
import MeshMQTT
import MeshServices

/// One radio uplinked to one broker (Docs/gateway.md): every packet the radio hears
/// (LOG_RX_DATA) goes to `meshcore/{IATA}/{KEY}/packets`, a retained `online` status to
/// `.../status` when the broker connection comes up and every few minutes, and the broker
/// holds `offline` as the last will. In token mode the password is a JWT the radio signs,
/// made again before it expires. The radio side never waits for the broker: messages queue in
/// the MQTT client's bounded backlog while it is away. The home automation topics, when the
/// target turns them on, share the connection (HomeAutomation/HomeAutomation.swift).
public actor Uplink {
    public nonisolated let target: UplinkTarget
    private let context: ServiceContext
    private let session: RadioSession
    private let selfInfo: SelfInfo
    private let clientVersion: String
    private let messenger: Messenger?
    private let backlogFolder: URL?
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let origin: GatewayOrigin
    private let topics: GatewayTopics
    private var client: MQTTClient?
    private var tasks: [Task<Void, Never>] = []
    private var device: DeviceInfo?
    private var home: HomeAutomation?
    private let tally = UplinkTally()
    public var counters: UplinkCounters { tally.current }
    /// Whether the MQTT client is connected to the broker, as its last state change said.
    public private(set) var brokerConnected = false
    private var droppedReported = 0

    /// `context`: the radio's, from its connection (its session, and its events and messages
    /// for the home automation topics). `backlogRoot`: the folder under which QoS 1 messages
    /// wait on disk while the broker is away, one subfolder per radio and `--mqtt` position
    /// `index` (nil: in memory). `logger` gets one sentence per event, with the uplink named in
    /// its metadata.
    /// `messenger`: the radio's, when the front end has one (a second one could give two
    /// messages the same ACK code); nil makes one for the home automation topic.
    public init(target: UplinkTarget, index: Int, context: ServiceContext, messenger: Messenger? = nil,
                clientVersion: String = "meshport/\(MeshportVersion.text)", backlogRoot: URL?,
                logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.target = target
        self.context = context
        self.messenger = messenger
        session = context.session
        selfInfo = context.selfInfo
        self.clientVersion = clientVersion
        backlogFolder = backlogRoot?.appendingPathComponent("\(context.selfInfo.publicKey.hex.prefix(16))-\(index)")
        var logger = logger
        logger[metadataKey: "uplink"] = "\(target)"
        self.logger = logger
        self.now = now
        origin = GatewayOrigin(selfInfo)
        topics = try GatewayTopics(region: target.region, publicKey: selfInfo.publicKey)
    }

    /// Connects to the broker and starts forwarding. Throws when the uplink cannot work at
    /// all: the radio cannot sign in token mode, a message cannot be made, the broker URL is
    /// refused by the MQTT library. A broker that is away is not an error: it is retried.
    public func start() async throws {
        guard client == nil else { return }
        device = try await session.expect(.deviceQuery(appTargetVersion: 3)) { if case let .deviceInfo(d) = $0 { d } else { nil } }
        let will = MQTTMessage(topic: topics.status, payload: try GatewayJSON.encode(StatusMessage.offline(origin: origin, at: now())),
                               qos: target.broker.qos, retain: true)
        let clientID = target.broker.clientID ?? "meshport-\(topics.keyHex.prefix(16))"
        let client = try MQTTClient(broker: target.broker, options: MQTTClientOptions(clientID: clientID, will: will, backlogFolder: backlogFolder))
        var keeper: (token: GatewayToken, renewal: TokenKeeper)?
        if target.auth == .token {
            let renewal = try TokenKeeper(now: now)
            let token = try await makeToken()
            await client.updateCredentials(username: GatewayToken.username(for: selfInfo.publicKey), password: token.text)
            keeper = (token, renewal)
        }
        self.client = client
        if target.messages || target.commands {
            let home = HomeAutomation(context: context, messenger: messenger, client: client, qos: target.broker.qos, logger: logger)
            try await home.start(messages: target.messages, commands: target.commands)
            self.home = home
        }
        // The packet log's decoding of each heard packet (MeshClient), not the session's raw pushes.
        let events = context.events.subscribe()
        let states = await client.stateUpdates()
        await client.start()
        logger.notice("uplink to \(target) started: region \(target.region), \(target.auth) authentication")
        let forwarder = PacketForwarder(client: client, topic: topics.packets, qos: target.broker.qos, origin: origin, target: target,
                                        tally: tally, logger: logger)
        tasks.append(Task {
            for await event in events {
                switch event {
                case let .packetHeard(heard):
                    await forwarder.forward(heard.packet, raw: heard.raw, hash: heard.hash, snrX4: heard.snrX4, rssi: heard.rssi, at: heard.heardAt)
                case let .packetUndecodable(raw, reason):
                    forwarder.undecodable(raw: raw, reason: reason)
                default:
                    continue
                }
            }
        })
        tasks.append(Task { [weak self] in
            for await state in states {
                await self?.connection(changedTo: state)
            }
        })
        let interval = target.statusInterval
        tasks.append(Task { [weak self] in
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                await self?.publishStatus()
            }
        })
        if let keeper {
            tasks.append(Task { [weak self] in await self?.renewTokens(from: keeper.token, keeper: keeper.renewal) })
        }
    }

    /// Publishes `offline` (a clean disconnect does not fire the will) and closes.
    public func stop() async {
        for task in tasks { task.cancel() }
        tasks = []
        await home?.stop()
        home = nil
        guard let client else { return }
        // Drops since the last status refresh are told now, not lost with the process.
        await reportDrops(client)
        do {
            try await client.publish(MQTTMessage(topic: topics.status, payload: try GatewayJSON.encode(StatusMessage.offline(origin: origin, at: now())),
                                                 qos: target.broker.qos, retain: true))
        } catch {
            logger.warning("uplink to \(target): the offline status could not be queued: \(error)")
        }
        await client.close()
        self.client = nil
        brokerConnected = false
    }

    /// The MQTT client's backlog figures (nil before `start`).
    public func backlog() async -> MQTTBacklogStats? { await client?.stats }

    private func connection(changedTo state: MQTTConnectionState) async {
        brokerConnected = state == .connected
        switch state {
        case .connected:
            logger.notice("uplink to \(target): connected")
            await publishStatus()
        case let .waiting(error, retryIn):
            logger.warning("uplink to \(target): \(error) Trying again in \(retryIn).")
        case .idle, .connecting, .closed:
            break
        }
    }

    /// The retained `online` status with the radio's current stats (left out when the radio
    /// gives none, as older firmware does).
    private func publishStatus() async {
        guard let client, let device else { return }
        var stats: [Stats] = []
        for type in [StatsType.core, .radio, .packets] {
            do {
                stats.append(try await TelemetryService(context: context).stats(type))
            } catch {
                tally.count { $0.statsFailures += 1 }
                break
            }
        }
        await reportDrops(client)
        let message = StatusMessage.online(selfInfo: selfInfo, device: device, stats: GatewayStats(stats), clientVersion: clientVersion, at: now())
        do {
            try await client.publish(MQTTMessage(topic: topics.status, payload: try GatewayJSON.encode(message), qos: target.broker.qos, retain: true))
            tally.count { $0.statusQueued += 1 }
        } catch {
            logger.warning("uplink to \(target): the status could not be queued: \(error)")
        }
    }

    /// Says in the log, at each status refresh, how many messages a full backlog dropped since
    /// the last time (the broker was away too long, or took messages more slowly than the radio
    /// heard them; /metrics has the running total).
    private func reportDrops(_ client: MQTTClient) async {
        let dropped = await client.stats.dropped
        if dropped > droppedReported {
            logger.warning("""
                uplink to \(target): \(dropped - droppedReported) messages dropped from the full backlog, because the broker was away \
                or took them more slowly than the radio heard them (\(dropped) in all)
                """)
            droppedReported = dropped
        }
    }

    private func makeToken() async throws -> GatewayToken {
        let signer = SigningService(session: session)
        return try await GatewayToken.make(publicKey: selfInfo.publicKey, audience: target.audience, issuedAt: now(),
                                           sign: { try await signer.sign($0) })
    }

    /// Makes each token again before it expires; a failed signing is retried a minute later
    /// (the old token stays in use until then).
    private func renewTokens(from first: GatewayToken, keeper: TokenKeeper) async {
        var token = first
        while !Task.isCancelled {
            do { try await Task.sleep(for: keeper.delayUntilRenewal(of: token)) } catch { return }
            do {
                token = try await makeToken()
                await client?.updateCredentials(username: GatewayToken.username(for: selfInfo.publicKey), password: token.text)
                tally.count { $0.tokensMade += 1 }
                logger.notice("uplink to \(target): token renewed, valid until \(Date(timeIntervalSince1970: Double(token.expiresAt)))")
            } catch {
                logger.warning("uplink to \(target): the token could not be renewed (\(error)); trying again in a minute")
                do { try await Task.sleep(for: .seconds(60)) } catch { return }
            }
        }
    }
}
