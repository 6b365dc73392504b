import ArgumentParser
import Foundation
import MeshCodec
import MeshStore

/// `meshport channels ...`: the radio's channel slots.
struct Channels: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "List, set, join and remove channels.",
        subcommands: [ChannelsList.self, ChannelsSet.self, ChannelsJoin.self, ChannelsRemove.self],
        defaultSubcommand: ChannelsList.self)
}

struct ChannelsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Sync with the radio and list its channel slots in use.")

    @OptionGroup var options: RadioOptions
    @Flag(help: "Read the database only; do not connect.") var offline = false
    @Flag(help: "Show empty slots too.") var all = false

    func run() async throws {
        try await reportingRadioErrors {
            let channels: [StoredChannel]
            if offline {
                let store = try StoreFile.open(options.databasePath, readOnly: true)
                channels = try store.reader.channels(try OfflineRadio.pick(store).id)
            } else {
                channels = try await RadioConnection.with(options) { radio in try radio.store.reader.channels(radio.context.radio) }
            }
            try ChannelOutput.list(channels.filter { all || $0.kind != .empty }, json: options.json)
        }
    }
}

struct ChannelsSet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set a channel slot: a name and a secret (32 hex digits), a passphrase, or a #hashtag name.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "Slot number.") var index: UInt8
    @Argument(help: "Channel name; a name starting with # makes a hashtag channel.") var name: String
    @Option(help: "The shared secret, 32 hex digits.") var secret: String?
    @Option(help: "A passphrase the secret is derived from.") var passphrase: String?

    func validate() throws {
        if secret != nil, passphrase != nil { throw ValidationError("give --secret or --passphrase, not both") }
        if let secret, ChannelSecret(hex: secret) == nil { throw ValidationError("--secret must be 32 hex digits") }
        if secret == nil, passphrase == nil, !name.hasPrefix("#") {
            throw ValidationError("a channel not named #something needs --secret or --passphrase")
        }
        guard name.utf8.count < 32 else { throw ValidationError("the name is \(name.utf8.count) bytes; channel names have at most 31") }
    }

    var channelSecret: ChannelSecret {
        if let secret, let s = ChannelSecret(hex: secret) { return s }
        if let passphrase { return .passphrase(passphrase) }
        return .hashtag(name)
    }

    func run() async throws {
        try await reportingRadioErrors {
            let info = ChannelInfo(index: index, name: name, secret: channelSecret)
            let saved = try await RadioConnection.with(options, showProgress: false) { radio in try await radio.channels.set(info) }
            try ChannelOutput.changed(saved, verb: "set", json: options.json)
        }
    }
}

struct ChannelsJoin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "join", abstract: "Join a hashtag channel (#name) in the first free slot.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "The channel, e.g. #meshport.") var name: String

    var hashtag: String { name.hasPrefix("#") ? name : "#" + name }

    func validate() throws {
        guard hashtag.utf8.count < 32, hashtag.count > 1 else { throw ValidationError("\"\(name)\" is not a channel name (#name, at most 31 bytes)") }
    }

    func run() async throws {
        try await reportingRadioErrors {
            let hashtag = hashtag
            let saved = try await RadioConnection.with(options, showProgress: false) { radio in try await radio.channels.join(hashtag: hashtag) }
            try ChannelOutput.changed(saved, verb: "joined", json: options.json)
        }
    }
}

struct ChannelsRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Clear a channel slot.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "Slot number, or the channel's name.") var channel: String

    func run() async throws {
        try await reportingRadioErrors {
            let saved = try await RadioConnection.with(options, showProgress: false) { radio in
                let service = radio.channels
                let slot = try await service.resolve(channel)
                try await service.remove(slot.index)
                return slot
            }
            try ChannelOutput.changed(saved, verb: "removed", json: options.json)
        }
    }
}

enum ChannelOutput {
    static func list(_ channels: [StoredChannel], json: Bool) throws {
        if json {
            try Output.json(channels.map(Describe.channelJSON))
        } else if channels.isEmpty {
            print("no channels")
        } else {
            Output.table(["slot", "name", "kind", "unread"], channels.map { ["\($0.index)", $0.name, $0.kind.rawValue, $0.unreadCount == 0 ? "" : "\($0.unreadCount)"] })
        }
    }

    static func changed(_ c: StoredChannel, verb: String, json: Bool) throws {
        if json {
            var out = Describe.channelJSON(c)
            out["result"] = verb
            try Output.json(out)
        } else {
            print("\(verb): slot \(c.index)\(c.name.isEmpty ? "" : " " + c.name)")
        }
    }
}
