import MeshDriverABI

/// How frames travel on a driver's link.
public enum LinkKind: String, Sendable, Codable {
    /// Bytes that need the `<`/`>` + length framing (serial, TCP, USB).
    case stream
    /// One frame per write and per received packet (BLE).
    case packet
}

/// A driver that loaded: what it says about itself, and its descriptor.
public struct LoadedDriver: @unchecked Sendable {
    public let path: String
    public let name: String
    public let version: String
    public let schemes: [String]
    public let linkKind: LinkKind
    public let maxFrameSize: Int
    public let abiMinor: Int
    /// "major.minor" of the ABI the driver was built for (its major is always the host's).
    public var abi: String { "\(MESHPORT_DRIVER_ABI_MAJOR).\(abiMinor)" }
    /// Points into the loaded library, which stays loaded for the process's life.
    let descriptor: UnsafePointer<meshport_driver_descriptor>
}

/// A library the loader refused, with the reason.
public struct RefusedDriver: Hashable, Sendable, Codable {
    public let path: String
    public let reason: String
}
extension RefusedDriver: Error {}
