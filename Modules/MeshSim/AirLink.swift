import Foundation
import MeshCodec

/// How well a packet sent at one place is heard at another, on the shared air of several
/// gateways (SimAir.swift): a log-distance path-loss model, documented in Docs/meshsim.md.
/// The received power is -108 dBm at 1 km and falls 35 dB per tenfold distance (exponent 3.5,
/// built-up land); the noise floor is -120 dBm. A packet is heard while its SNR is at least
/// -20 dB (LoRa's demodulation floor at SF12), which puts the range at about 8 km. Reported
/// values are clamped to what a LoRa radio reports: SNR -20 to +12 dB, RSSI -128 (the
/// lowest LOG_RX_DATA's signed byte holds) to -40 dBm.
public struct AirLink: Hashable, Sendable {
    public var snrX4: Int8
    public var rssi: Int8

    static let powerAt1km = -108.0, exponent = 3.5, noiseFloor = -120.0
    static let snrRange = -20.0...12.0
    /// LoRa radios report down to about -130 dBm; LOG_RX_DATA carries RSSI in one signed byte.
    static let rssiRange = -128.0...(-40.0)

    /// The link from `a` to `b`, or nil when `b` is out of range.
    public static func between(_ a: Coordinates, _ b: Coordinates) -> AirLink? {
        let km = max(distanceKm(a, b), 0.01)
        let power = powerAt1km - 10 * exponent * log10(km)
        let snr = power - noiseFloor
        guard snr >= snrRange.lowerBound else { return nil }
        return AirLink(snrX4: Int8((min(snr, snrRange.upperBound) * 4).rounded()),
                       rssi: Int8(min(max(power, rssiRange.lowerBound), rssiRange.upperBound).rounded()))
    }

    /// Great-circle distance (haversine, mean Earth radius).
    public static func distanceKm(_ a: Coordinates, _ b: Coordinates) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371.0 * asin(min(1, h.squareRoot()))
    }
}
