import Foundation
import MeshCodec

/// How a channel slot's secret was made, as far as the store can tell from name and secret.
public enum ChannelKind: String, Hashable, Sendable {
    case empty, `public`, hashtag, `private`

    public init(_ info: ChannelInfo) {
        if info.isEmpty || info.secret.isEmpty {
            self = .empty
        } else if info.secret == .publicChannel {
            self = .public
        } else if info.name.hasPrefix("#"), info.secret == ChannelSecret.hashtag(info.name) {
            self = .hashtag
        } else {
            self = .private
        }
    }
}

/// One channel slot of a radio (the firmware's default build has 8).
public struct StoredChannel: Hashable, Sendable {
    public var radio: RadioID
    public var info: ChannelInfo
    public var kind: ChannelKind
    public var unreadCount: Int
    public var messageCount: Int
    public var isArchived: Bool
    public var createdAt: Date
    public var updatedAt: Date

    public var index: UInt8 { info.index }
    public var name: String { info.name }
}
