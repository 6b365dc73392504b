/// DEVICE_INFO (13), the answer to DEVICE_QUERY (Docs/protocol.md §4.5). The layout depends on
/// the protocol version in byte 1: v1 had 6 reserved bytes, a date and a variable-length
/// manufacturer; v2 fixed the string widths; v3 filled bytes 2-7; v9 and v10 appended a byte each.
public struct DeviceInfo: Hashable, Sendable {
    static let dateWidth = 12
    static let manufacturerWidth = 40
    static let versionWidth = 20

    /// `FIRMWARE_VER_CODE`, 13 at v1.17.1.
    public var protocolVersion: UInt8
    /// Contact table capacity (v3+; sent halved on the wire).
    public var maxContacts: Int?
    public var maxChannels: UInt8?
    /// The stored BLE PIN (0 = not set), v3+.
    public var blePin: UInt32?
    public var buildDate: String
    public var manufacturer: String
    /// v2+.
    public var firmwareVersion: String?
    /// v9+.
    public var clientRepeat: Bool?
    /// v10+: 0/1/2 = 1/2/3-byte hop hashes.
    public var pathHashMode: UInt8?

    public init(protocolVersion: UInt8, maxContacts: Int? = nil, maxChannels: UInt8? = nil, blePin: UInt32? = nil,
                buildDate: String, manufacturer: String, firmwareVersion: String? = nil,
                clientRepeat: Bool? = nil, pathHashMode: UInt8? = nil) {
        self.protocolVersion = protocolVersion
        self.maxContacts = maxContacts
        self.maxChannels = maxChannels
        self.blePin = blePin
        self.buildDate = buildDate
        self.manufacturer = manufacturer
        self.firmwareVersion = firmwareVersion
        self.clientRepeat = clientRepeat
        self.pathHashMode = pathHashMode
    }

    static func read(_ r: inout ByteReader) throws -> DeviceInfo {
        let ver = try r.u8("protocol version")
        var info = DeviceInfo(protocolVersion: ver, buildDate: "", manufacturer: "")
        if ver >= 3 {
            info.maxContacts = Int(try r.u8("max contacts / 2")) * 2
            info.maxChannels = try r.u8("max channels")
            info.blePin = try r.u32("BLE PIN")
        } else {
            _ = try r.bytes(6, "reserved")
        }
        info.buildDate = try r.fixedString(dateWidth, "build date")
        if ver <= 1 {
            info.manufacturer = FixedString.decode(r.rest())
            return info
        }
        info.manufacturer = try r.fixedString(manufacturerWidth, "manufacturer")
        info.firmwareVersion = try r.fixedString(versionWidth, "firmware version")
        // Later additions are read by length: a frame may come from a build between bumps.
        if ver >= 9, !r.isAtEnd { info.clientRepeat = try r.u8("client repeat") != 0 }
        if ver >= 10, !r.isAtEnd { info.pathHashMode = try r.u8("path hash mode") }
        return info
    }

    func write(_ w: inout ByteWriter) {
        w.u8(protocolVersion)
        if protocolVersion >= 3 {
            w.u8(UInt8(clamping: (maxContacts ?? 0) / 2))
            w.u8(maxChannels ?? 0)
            w.u32(blePin ?? 0)
        } else {
            w.append([UInt8](repeating: 0, count: 6))
        }
        w.fixedString(buildDate, width: Self.dateWidth)
        if protocolVersion <= 1 {
            w.string(manufacturer)
            return
        }
        w.fixedString(manufacturer, width: Self.manufacturerWidth)
        w.fixedString(firmwareVersion ?? "", width: Self.versionWidth)
        // Appended bytes are written only when known, so a short frame re-encodes as it came.
        guard protocolVersion >= 9, let clientRepeat else { return }
        w.u8(clientRepeat ? 1 : 0)
        if protocolVersion >= 10, let pathHashMode { w.u8(pathHashMode) }
    }
}
