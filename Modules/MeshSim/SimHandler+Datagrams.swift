import MeshCodec

/// Sends that carry no text and expect no answer from the simulated mesh: raw data, raw
/// packets, channel datagrams, control data. Checked as the firmware checks them, counted
/// in the stats.
extension SimHandler {
    /// MAX_FRAME_SIZE − 9: the companion's limit for a channel datagram's payload.
    static let maxChannelData = 167

    static func datagram(_ s: inout SimRadioState, _ command: Command) -> [RadioFrame]? {
        let bytes: Int
        var flood = false
        switch command {
        case let .sendRawData(path, payload):
            bytes = 2 + path.count + payload.count
        case let .sendRawPacket(_, packet):
            bytes = packet.count
        case let .sendControlData(data):
            bytes = 2 + data.count
        case let .sendChannelData(d):
            guard Int(d.channelIndex) < s.channels.count else { return [error(.notFound)] }
            guard d.dataType != 0, d.payload.count <= maxChannelData else { return [error(.illegalArgument)] }
            // The mesh layer's own limit is lower (165): longer payloads fail when queued.
            guard d.payload.count <= 165 else { return [error(.tableFull)] }
            flood = d.path.length.isNone
            bytes = 2 + d.path.bytes.count + 3 + d.payload.count
        default:
            return nil
        }
        countSent(&s, flood: flood, airtime: Airtime.milliseconds(payloadBytes: bytes, radio: s.radio))
        return [ok]
    }
}
