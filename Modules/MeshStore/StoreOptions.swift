import Foundation

/// How a store opens its file.
public enum OpenMode: Sendable, Hashable {
    /// Migrates the file to the current schema; one writer, concurrent readers.
    case readWrite
    /// `SQLITE_OPEN_READONLY`: for inspecting a live database without any risk to it.
    case readOnly
}

/// What a commit promises when it returns.
public enum Durability: Sendable, Hashable {
    /// `synchronous=FULL`: a returned write survives a process kill and a power cut.
    case full
    /// `synchronous=NORMAL` (WAL): survives a process kill; a power cut may roll back the
    /// newest commits but never corrupts the file.
    case normal
}

/// Row caps, enforced in the inserting transaction; the oldest rows go first.
public struct StoreLimits: Sendable, Hashable {
    public var positionsPerNode: Int
    public var telemetryPerNodeAndType: Int
    public var statsPerNode: Int
    public var messagesPerConversation: Int
    /// Heard packets kept per radio (the packet log): at a hundred a minute, a day and a half.
    public var packetsPerRadio: Int

    /// The caps of persistence.md.
    public static let standard = StoreLimits(positionsPerNode: 5_000, telemetryPerNodeAndType: 5_000, statsPerNode: 5_000,
                                             messagesPerConversation: 50_000)

    public init(positionsPerNode: Int, telemetryPerNodeAndType: Int, statsPerNode: Int, messagesPerConversation: Int,
                packetsPerRadio: Int = 200_000) {
        self.positionsPerNode = positionsPerNode
        self.telemetryPerNodeAndType = telemetryPerNodeAndType
        self.statsPerNode = statsPerNode
        self.messagesPerConversation = messagesPerConversation
        self.packetsPerRadio = packetsPerRadio
    }
}

public struct StoreOptions: Sendable {
    public var mode: OpenMode
    public var durability: Durability
    public var limits: StoreLimits
    /// Wall clock for createdAt/updatedAt and outgoing message times; tests inject one.
    public var now: @Sendable () -> Date
    /// Told about every failure the store reports, with what was attempted (for logs).
    public var onError: @Sendable (StoreError) -> Void
    /// Samples are written after this long without new ones (and at most `coalesceCeiling`
    /// after the first); a test that must see them wait sets a long one.
    public var coalesceIdle: Duration = .seconds(2)
    public var coalesceCeiling: Duration = .seconds(5)

    public init(mode: OpenMode = .readWrite, durability: Durability = .full, limits: StoreLimits = .standard,
                now: @escaping @Sendable () -> Date = { Date() }, onError: @escaping @Sendable (StoreError) -> Void = { _ in }) {
        self.mode = mode
        self.durability = durability
        self.limits = limits
        self.now = now
        self.onError = onError
    }
}
