/// A push frame, radio -> app, unsolicited (Docs/protocol.md §5).
public enum Push: Hashable, Sendable {
    /// An advert updated (or auto-added) a contact: fetch it by key.
    case advert(PublicKey)
    case pathUpdated(PublicKey)
    case sendConfirmed(ackCode: AckCode, roundTripMs: UInt32)
    case messageWaiting
    /// `extra` is the reserved byte (0xFF).
    case rawData(ReceivedPacket)
    case loginSuccess(LoginSuccess)
    case loginFail(KeyPrefix)
    /// The status blob; `RepeaterStatus(blob:)` parses repeater and room server status.
    case statusResponse(KeyPrefix, blob: [UInt8])
    /// Every received LoRa packet while an app is connected; `payload` is the raw packet.
    case logRxData(ReceivedPacket)
    case traceData(TraceData)
    /// An advert from a node not added to contacts.
    case newAdvert(Contact)
    /// Cayenne LPP records (see `CayenneLPP`).
    case telemetryResponse(KeyPrefix, lpp: [UInt8])
    case binaryResponse(tag: AckCode, data: [UInt8])
    case pathDiscoveryResponse(PathDiscoveryResponse)
    /// `extra` is the packet's path_len.
    case controlData(ReceivedPacket)
    case contactDeleted(PublicKey)
    case contactsFull
    case unknown(code: UInt8, payload: [UInt8])

    public var code: UInt8 {
        let c: PushCode
        switch self {
        case .advert: c = .advert
        case .pathUpdated: c = .pathUpdated
        case .sendConfirmed: c = .sendConfirmed
        case .messageWaiting: c = .messageWaiting
        case .rawData: c = .rawData
        case .loginSuccess: c = .loginSuccess
        case .loginFail: c = .loginFail
        case .statusResponse: c = .statusResponse
        case .logRxData: c = .logRxData
        case .traceData: c = .traceData
        case .newAdvert: c = .newAdvert
        case .telemetryResponse: c = .telemetryResponse
        case .binaryResponse: c = .binaryResponse
        case .pathDiscoveryResponse: c = .pathDiscoveryResponse
        case .controlData: c = .controlData
        case .contactDeleted: c = .contactDeleted
        case .contactsFull: c = .contactsFull
        case let .unknown(code, _): return code
        }
        return c.rawValue
    }

    public var name: String { PushCode(rawValue: code)?.firmwareName ?? "push 0x\(Hex.encode([code]))" }
}
