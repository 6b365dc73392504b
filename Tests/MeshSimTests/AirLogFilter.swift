import MeshCodec

extension Array where Element == RadioFrame {
    /// Without LOG_RX_DATA pushes: for tests of what packets cause rather than how they sound.
    var withoutAirLog: [RadioFrame] {
        filter {
            if case .push(.logRxData) = $0 { return false }
            return true
        }
    }

    /// The packets LOG_RX_DATA pushes carry, decoded.
    func airPackets() throws -> [(ReceivedPacket, AirPacket)] {
        try compactMap {
            guard case let .push(.logRxData(log)) = $0 else { return nil }
            return (log, try AirPacket(decoding: log.payload))
        }
    }
}
