import MeshCodec
import MeshSim

/// The far side of the link checks before MeshSim exists: a tiny radio built on MeshCodec's
/// radio side. It answers the conformance hooks and a companion session's essentials
/// (APP_START, DEVICE_QUERY, contacts, message drain, a DM with its ACK); anything else
/// gets ERR_CODE_UNSUPPORTED_CMD, as the firmware answers unknown commands.
public struct MinimalResponder: Sendable {
    /// What a stream far side writes, then whether it drops the link (MeshSim's type: one
    /// definition for both far sides).
    public typealias Reply = SimLinkReply

    public var contacts: [Contact]
    public var queuedMessages: [Response]
    public let selfKey: PublicKey
    private var clock: UInt32 = 1_763_000_000

    public init(contactCount: Int = 500, queuedMessages: Int = 20) {
        selfKey = PublicKey((0..<32).map { (b: Int) -> UInt8 in UInt8(0xC0 + b) })!
        contacts = (0..<contactCount).map { (i: Int) -> Contact in
            let bytes: [UInt8] = (0..<32).map { (b: Int) -> UInt8 in UInt8(truncatingIfNeeded: i * 31 + b * 7 + 1) }
            let key = PublicKey(bytes)!
            return Contact(publicKey: key, type: i % 10 == 0 ? .repeater : .chat, name: "node-\(i)", lastAdvert: UInt32(1_762_000_000 + i),
                           lastModified: UInt32(1_762_500_000 + i))
        }
        let prefix = contacts.first?.publicKey.prefix() ?? KeyPrefix([1, 2, 3, 4, 5, 6])!
        self.queuedMessages = (0..<queuedMessages).map { (i: Int) -> Response in
            let sentAt = UInt32(1_762_900_000 + i)
            if i % 2 == 0 {
                return .contactMessage(ContactMessage(senderPrefix: prefix, pathLength: .none, senderTimestamp: sentAt, text: "queued \(i)"))
            }
            return .channelMessage(ChannelMessage(channelIndex: 0, pathLength: PathLength(raw: 1), senderTimestamp: sentAt, text: "peer: queued \(i)"))
        }
    }

    public mutating func answer(_ frame: [UInt8]) -> Reply {
        guard !frame.isEmpty else { return Reply() }
        if let hook = SimLinkReply.hook(frame) { return hook }
        let responses: [RadioFrame]
        do {
            responses = respond(to: try Command(decoding: frame))
        } catch {
            responses = [.response(.error(.unsupportedCommand))]
        }
        // Every value here is built by this responder and encodes; a failure is a bug in it.
        return Reply(frames: responses.map { r in
            do { return try r.encode() } catch { preconditionFailure("MinimalResponder built an unencodable \(r.name): \(error)") }
        })
    }

    private mutating func respond(to command: Command) -> [RadioFrame] {
        switch command {
        case .appStart:
            return [.response(.selfInfo(SelfInfo(txPower: 22, maxTxPower: 30, publicKey: selfKey,
                                                 radio: RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5),
                                                 name: "Minimal responder")))]
        case .deviceQuery:
            return [.response(.deviceInfo(DeviceInfo(protocolVersion: 13, maxContacts: 1000, maxChannels: 8, blePin: 0, buildDate: "22 Nov 2026",
                                                     manufacturer: "Meshport minimal responder", firmwareVersion: "v1.17.1",
                                                     clientRepeat: false, pathHashMode: 0)))]
        case .getDeviceTime:
            return [.response(.currentTime(clock))]
        case let .getContacts(since):
            let selected = contacts.filter { $0.lastModified > (since ?? 0) }
            return [.response(.contactsStart(total: UInt32(contacts.count)))] + selected.map { .response(.contact($0)) }
                + [.response(.endOfContacts(lastModified: selected.map(\.lastModified).max() ?? 0))]
        case .syncNextMessage:
            return queuedMessages.isEmpty ? [.response(.noMoreMessages)] : [.response(queuedMessages.removeFirst())]
        case let .sendTextMessage(m):
            guard contacts.contains(where: { m.recipient.matches($0.publicKey) }) else { return [.response(.error(.notFound))] }
            let ack = AckCode.expected(timestamp: m.timestamp, attempt: m.attempt, textType: m.textType, text: Array(m.text.utf8), sender: selfKey)
            return [.response(.sent(Sent(flood: false, ackCode: ack, suggestedTimeoutMs: 3000))), .push(.sendConfirmed(ackCode: ack, roundTripMs: 420))]
        default:
            return [.response(.error(.unsupportedCommand))]
        }
    }
}
