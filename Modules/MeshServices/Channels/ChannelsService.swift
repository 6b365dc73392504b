import MeshCodec
import MeshStore

/// The radio's channel slots (Docs/protocol.md §7.6): list, set, join `#hashtag`, passphrase
/// and shared-secret channels, remove. Every write is read back before it is stored.
public actor ChannelsService {
    public let context: ServiceContext
    private var session: RadioSession { context.session }

    public init(context: ServiceContext) { self.context = context }

    /// The slots as stored (empty ones included).
    public func list() throws -> [StoredChannel] { try context.store.reader.channels(context.radio) }

    /// GET_CHANNEL for every slot the store knows of (8 unless the radio has fewer).
    @discardableResult
    public func refresh() async throws -> [StoredChannel] {
        let count = max(try list().count, 1)
        var slots: [ChannelInfo] = []
        for index in 0..<UInt8(count) {
            slots.append(try await session.expect(.getChannel(index)) { if case let .channelInfo(v) = $0 { v } else { nil } })
        }
        return try await context.store.writer.saveChannels(context.radio, slots)
    }

    /// SET_CHANNEL, then GET_CHANNEL to confirm.
    @discardableResult
    public func set(_ info: ChannelInfo) async throws -> StoredChannel {
        guard info.name.utf8.count < 32 else { throw ChannelsError.nameTooLong(info.name) }
        try await session.expectOK(.setChannel(info))
        let back = try await session.expect(.getChannel(info.index)) { if case let .channelInfo(v) = $0 { v } else { nil } }
        guard back == info else { throw ChannelsError.notApplied(index: info.index, wrote: info.name, readBack: back.name) }
        guard let stored = try await context.store.writer.saveChannels(context.radio, [back]).first else {
            throw ChannelsError.notApplied(index: info.index, wrote: info.name, readBack: "nothing stored")
        }
        return stored
    }

    /// Joins `#name` (secret from the name, as every client derives it) in the first free
    /// slot; already joined, its slot is returned unchanged.
    @discardableResult
    public func join(hashtag name: String) async throws -> StoredChannel {
        let full = name.hasPrefix("#") ? name : "#" + name
        return try await join(name: full, secret: .hashtag(full))
    }

    /// Joins a private channel by name and shared secret (or one made from a passphrase).
    @discardableResult
    public func join(name: String, secret: ChannelSecret) async throws -> StoredChannel {
        let slots = try list()
        if let existing = slots.first(where: { $0.info.secret == secret && $0.name == name }) { return existing }
        guard let free = slots.first(where: { $0.info.isEmpty }) else { throw ChannelsError.noFreeSlot(slots.count) }
        return try await set(ChannelInfo(index: free.index, name: name, secret: secret))
    }

    /// Empties a slot (empty name, all-zero secret).
    public func remove(_ index: UInt8) async throws {
        try await set(ChannelInfo(index: index, name: "", secret: .empty))
    }

    /// The slot whose name is `name` (ignoring case, `#` optional for hashtags) or index.
    public func resolve(_ query: String) throws -> StoredChannel {
        let slots = try list().filter { !$0.info.isEmpty }
        if let index = UInt8(query), let slot = slots.first(where: { $0.index == index }) { return slot }
        let lower = query.lowercased()
        if let slot = slots.first(where: { $0.name.lowercased() == lower || $0.name.lowercased() == "#" + lower }) { return slot }
        throw ChannelsError.notFound(query)
    }

    /// The `meshcore://channel/add` link of a slot.
    public func uri(_ index: UInt8) throws -> ChannelURI {
        guard let slot = try list().first(where: { $0.index == index && !$0.info.isEmpty }) else { throw ChannelsError.notFound(String(index)) }
        return ChannelURI(name: slot.name, secret: slot.info.secret)
    }
}

public enum ChannelsError: Error, Hashable, Sendable, CustomStringConvertible {
    case nameTooLong(String)
    case noFreeSlot(Int)
    case notFound(String)
    case notApplied(index: UInt8, wrote: String, readBack: String)

    public var description: String {
        switch self {
        case let .nameTooLong(name): "channel name \"\(name)\" is longer than 31 bytes"
        case let .noFreeSlot(count): "all \(count) channel slots are in use; remove one first (`meshport channels remove N`)"
        case let .notFound(query): "no channel \"\(query)\"; `meshport channels list` shows them"
        case let .notApplied(index, wrote, readBack): "channel slot \(index) reads back \"\(readBack)\" after writing \"\(wrote)\""
        }
    }
}
