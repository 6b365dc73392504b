import MeshCodec

/// The radio's saved preferences beyond name, radio and position (NodePrefs): contact
/// auto-add, telemetry sharing, tuning, flood scope.
public struct SimPrefs: Hashable, Sendable {
    /// Bit 0 set: add only the node types enabled in `autoAdd`.
    public var manualAddContacts: UInt8 = 0
    public var telemetryModes = TelemetryModes(rawValue: 0)
    public var advertLocationPolicy: UInt8 = 0
    public var multiAcks: UInt8 = 0
    /// Bit 0 overwrite oldest when full; bits 1-4 chat, repeater, room, sensor.
    public var autoAdd = AutoAddConfig(bitmask: 0, maxHops: 0)
    /// Both × 1000 on the wire; the firmware's defaults are 0 and 1.0.
    public var rxDelayBase: UInt32 = 0
    public var airtimeFactor: UInt32 = 1000
    public var defaultFloodScope: FloodScope?
    /// Session only, not saved (SET_FLOOD_SCOPE_KEY).
    public var floodScopeOverride: FloodScopeOverride?

    public init() {}

    /// `shouldAutoAddContactType`: everything in automatic mode, else the type's bit.
    func autoAdds(_ type: NodeType) -> Bool {
        guard manualAddContacts & 1 == 1 else { return true }
        let bit: UInt8 = switch type {
        case .chat: 0x02
        case .repeater: 0x04
        case .room: 0x08
        case .sensor: 0x10
        default: 0
        }
        return autoAdd.bitmask & bit != 0
    }

    var overwritesOldest: Bool { autoAdd.bitmask & 1 != 0 }
}
