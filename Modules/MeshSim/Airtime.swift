import MeshCodec

/// LoRa time on air and the firmware's suggested ACK timeouts (Docs/protocol.md §7.4).
enum Airtime {
    /// Semtech's time-on-air formula: explicit header, CRC on, 16-symbol preamble (MeshCore's),
    /// low-data-rate optimisation when a symbol lasts 16 ms or more.
    static func milliseconds(payloadBytes: Int, radio: RadioParams) -> Double {
        let sf = Double(radio.spreadingFactor)
        let symbol = Double(1 << Int(radio.spreadingFactor)) / Double(max(radio.bandwidthHz, 1)) * 1000
        let lowRate: Double = symbol >= 16 ? 1 : 0
        let bits = 8 * Double(payloadBytes) - 4 * sf + 28 + 16
        let perBlock = 4 * (sf - 2 * lowRate)
        let blocks = max((bits / perBlock).rounded(.up), 0)
        let payloadSymbols = 8 + blocks * Double(radio.codingRate)
        return (16 + 4.25 + payloadSymbols) * symbol
    }

    /// On-air size of a direct text message: header, path_len, path, dest and source hashes,
    /// 2-byte MAC, then timestamp, flags and text padded to the 16-byte cipher block.
    static func textPacketBytes(textBytes: Int, pathBytes: Int) -> Int {
        let plain = 5 + textBytes
        return 2 + pathBytes + 2 + 2 + (plain + 15) / 16 * 16
    }

    /// SEND_TIMEOUT_BASE_MILLIS + FLOOD_SEND_TIMEOUT_FACTOR × airtime.
    static func floodTimeout(airtime: Double) -> UInt32 { UInt32(500 + 16 * airtime) }

    /// SEND_TIMEOUT_BASE_MILLIS + (DIRECT_SEND_PERHOP_FACTOR × airtime + 250) × (hops + 1).
    static func directTimeout(airtime: Double, hops: Int) -> UInt32 { UInt32(500 + (6 * airtime + 250) * Double(hops + 1)) }
}

extension Airtime {
    /// An encrypted request datagram: header, path_len, path, dest and source hashes, MAC,
    /// then the body padded to the cipher block.
    static func requestBytes(bodyBytes: Int, pathBytes: Int) -> Int { 2 + pathBytes + 2 + 2 + (bodyBytes + 15) / 16 * 16 }

    /// An anonymous request (logins): the sender's whole public key instead of its hash.
    static func anonRequestBytes(bodyBytes: Int, pathBytes: Int) -> Int { 2 + pathBytes + 1 + 32 + 2 + (bodyBytes + 15) / 16 * 16 }
}
