import MeshBLE
import MeshDriverABI
import MeshDriverKit
import MeshTransport

/// What a `ble://` URL asks for, with the config's defaults filled in.
struct BLEOptions: Sendable {
    var peer: BDAddress
    var hci: String
    /// From ?pin= or the config; nil means ask on the terminal if pairing is needed.
    var passkey: UInt32?
    var connectTimeout: Duration
    /// Write Request (acknowledged) or Write Command to RX.
    var withResponse: Bool

    init(url text: String, config: BLEConfig) throws(DriverFailure) {
        let url = try TransportURL.forDriver(text)
        // Random static addresses have the two top bits set; radios with a public address
        // (ESP32 boards) need type=public unless their address happens to look random.
        let explicit = url.parameter("type").map { $0 == "public" ? BDAddress.Kind.public : .random }
        do {
            let probe = try BDAddress(url.host, kind: .random)
            peer = try BDAddress(url.host, kind: explicit ?? (probe.bytes[0] & 0xC0 == 0xC0 ? .random : .public))
        } catch {
            throw DriverFailure(MESHPORT_ERR_INVALID_URL, error.description)
        }
        hci = url.parameter("hci") ?? config.hci ?? BLEConfig.defaultHCI
        passkey = url.parameter("pin").flatMap { UInt32($0) } ?? config.passkey(for: peer)
        connectTimeout = .milliseconds(Int((Double(url.parameter("timeout") ?? "10") ?? 10) * 1000))
        withResponse = url.parameter("write") != "command"
    }
}
