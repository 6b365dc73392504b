import MeshCodec

/// The firmware's offline message queue (Docs/protocol.md §7.3, §11): incoming DMs, channel
/// messages and datagrams wait here for SYNC_NEXT_MESSAGE, connected app or not.
public struct OfflineQueue: Hashable, Sendable {
    public private(set) var messages: [Response] = []
    public let capacity: Int
    /// Messages lost because the queue was full.
    public private(set) var dropped = 0

    public init(capacity: Int) { self.capacity = capacity }

    public var count: Int { messages.count }

    /// Changes every queued message in place, order kept.
    mutating func updateEach(_ change: (inout Response) -> Void) {
        for i in messages.indices { change(&messages[i]) }
    }
    public var isEmpty: Bool { messages.isEmpty }

    /// Queues `message`. When full, the oldest channel message or datagram makes room; if
    /// the queue holds only DMs, the new message is lost. False when it was not queued.
    @discardableResult
    public mutating func push(_ message: Response) -> Bool {
        if messages.count >= capacity {
            guard let i = messages.firstIndex(where: Self.isChannelTraffic) else {
                dropped += 1
                return false
            }
            messages.remove(at: i)
            dropped += 1
        }
        messages.append(message)
        return true
    }

    public mutating func pop() -> Response? { messages.isEmpty ? nil : messages.removeFirst() }

    private static func isChannelTraffic(_ r: Response) -> Bool {
        switch r {
        case .channelMessage, .channelData: true
        default: false
        }
    }
}
