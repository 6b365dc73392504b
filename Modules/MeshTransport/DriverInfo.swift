import MeshDriverABI

/// How frames travel on a driver's link.
public enum LinkKind: String, Sendable, Codable {
    /// Bytes that need the `<`/`>` + length framing (serial, TCP, USB).
    case stream
    /// One frame per write and per received packet (BLE).
    case packet
}

/// What a front end needs to know about a driver's links (the descriptor's `flags`).
public struct LinkFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Opening may wait for a person to type the radio's passkey.
    public static let needsPairing = LinkFlags(rawValue: MESHPORT_LINK_NEEDS_PAIRING.rawValue)
    /// The radio's own serial port, where other firmware talks too.
    public static let serialConsole = LinkFlags(rawValue: MESHPORT_LINK_SERIAL_CONSOLE.rawValue)

    /// The flags this host knows, by the name `meshport plugins` shows.
    public static let named: [(LinkFlags, String)] = [(.needsPairing, "pairing"), (.serialConsole, "serial console")]
    public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
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
    /// Known flags only: bits this host has no name for are dropped.
    public let flags: LinkFlags
    /// "major.minor" of the ABI the driver was built for (its major is always the host's).
    public var abi: String { "\(MESHPORT_DRIVER_ABI_MAJOR).\(abiMinor)" }
    public var needsPairing: Bool { flags.contains(.needsPairing) }
    /// A copy of the descriptor as far as its `descriptor_size` reaches, the rest zero (a
    /// driver built for an older minor has no later fields). Its pointers point into the
    /// loaded library, which stays loaded for the process's life.
    let descriptor: meshport_driver_descriptor
}

/// A library the loader refused, with the reason.
public struct RefusedDriver: Hashable, Sendable, Codable {
    public let path: String
    public let reason: String
}
extension RefusedDriver: Error {}
