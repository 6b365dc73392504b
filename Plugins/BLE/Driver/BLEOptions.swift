import MeshBLE
import MeshDriverABI
import MeshDriverKit

/// What a `ble://` URL asks for, with the config's defaults filled in.
struct BLEOptions: Sendable {
    var peer: BDAddress
    var hci: String
    /// From ?pin= or the config; nil means ask on the terminal if pairing is needed.
    var passkey: UInt32?
    var connectTimeout: Duration
    /// Write Request (acknowledged) or Write Command to RX.
    var withResponse: Bool

    /// `ble://ADDRESS[?pin=123456&hci=hci0&type=random|public&timeout=SECONDS&write=request|command]`.
    static func check(_ url: TransportURL) throws(TransportURLError) {
        let parts = url.authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else {
            throw url.invalid(url.authority.isEmpty ? url.text : url.authority,
                              "ble needs the radio's address: ble://F0:00:00:00:00:01 (meshport scan lists them)")
        }
        try url.allowParameters(["pin", "hci", "type", "timeout", "write"])
        if let pin = url.parameter("pin"), pin.count != 6 || !pin.allSatisfy(\.isASCII) || Int(pin) == nil {
            throw url.invalid(pin, "pin is the radio's 6-digit PIN (default 123456)")
        }
        if let type = url.parameter("type"), !["public", "random"].contains(type) {
            throw url.invalid(type, "type is public or random")
        }
        if let write = url.parameter("write"), !["request", "command"].contains(write) {
            throw url.invalid(write, "write is request (acknowledged) or command (without response)")
        }
        if let t = url.parameter("timeout"), (Double(t) ?? 0) <= 0 {
            throw url.invalid(t, "timeout is a number of seconds")
        }
    }

    init(url text: String, config: BLEConfig) throws(DriverFailure) {
        let url = try BLEDriver.validate(url: text)
        // Random static addresses have the two top bits set; radios with a public address
        // (ESP32 boards) need type=public unless their address happens to look random.
        let explicit = url.parameter("type").map { $0 == "public" ? BDAddress.Kind.public : .random }
        do {
            let probe = try BDAddress(url.authority, kind: .random)
            peer = try BDAddress(url.authority, kind: explicit ?? (probe.bytes[0] & 0xC0 == 0xC0 ? .random : .public))
        } catch {
            throw DriverFailure(MESHPORT_ERR_INVALID_URL, error.description)
        }
        hci = url.parameter("hci") ?? config.hci ?? BLEConfig.defaultHCI
        passkey = url.parameter("pin").flatMap { UInt32($0) } ?? config.passkey(for: peer)
        connectTimeout = .milliseconds(Int((Double(url.parameter("timeout") ?? "10") ?? 10) * 1000))
        withResponse = url.parameter("write") != "command"
    }
}
