import MeshCodec

/// The channels whose group texts a worker decrypts: Public (the firmware's well-known secret)
/// always, `#hashtag` channels by name (their secret derived from it as the firmware does,
/// Docs/protocol.md §7.6), and private channels given with their secret.
public struct IngestChannels: Sendable, Equatable {
    public struct Channel: Sendable, Equatable {
        public let name: String
        public let secret: ChannelSecret

        public var hash: UInt8 { secret.channelHash }
    }

    public private(set) var channels: [Channel] = [Channel(name: ChannelSecret.publicChannelName, secret: .publicChannel)]

    public init() {}

    /// Public plus one channel per `NAME[=HEXSECRET]` (the `--channel` option): `#name` alone
    /// derives its secret from the name; any other name needs its 32 hex digit secret.
    public init(specs: [String]) throws(IngestOptionsError) {
        for spec in specs { try add(spec) }
    }

    public mutating func add(_ spec: String) throws(IngestOptionsError) {
        let parts = spec.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name != "#" else { throw .badChannel(spec: spec, reason: "the channel name is empty") }
        let secret: ChannelSecret
        if parts.count == 2 {
            guard let given = ChannelSecret(hex: String(parts[1])) else {
                throw .badChannel(spec: spec, reason: "the secret after = is not 32 hex digits")
            }
            secret = given
        } else if name.hasPrefix("#") {
            secret = .hashtag(name)
        } else {
            throw .badChannel(spec: spec, reason: "a private channel needs its secret (\(name)=32 hex digits); hashtag channels start with #")
        }
        channels.removeAll { $0.name == name }
        channels.append(Channel(name: name, secret: secret))
    }

    /// The channels whose on-air hash is `hash` (several may share one byte).
    func candidates(hash: UInt8) -> [Channel] { channels.filter { $0.hash == hash } }
}
