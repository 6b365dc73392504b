import MeshCodec
import MeshGateway

/// The home automation topics of one radio (Docs/gateway.md, "Home automation"). They live
/// under `meshport/`, not `meshcore/`: the `meshcore/` tree is the community format, read by
/// the community's analyzers, and the radio's private messages must never look like part of it.
struct HomeTopics: Sendable {
    /// The radio's public key, 64 upper-case hex digits (as in the gateway topics).
    let keyHex: String

    init(publicKey: PublicKey) { keyHex = GatewayTopics.keyHex(publicKey) }

    /// Every message the radio receives or sends, and each status change of a sent one.
    var messages: String { "meshport/\(keyHex)/messages" }
    /// Commands: a message to send.
    var send: String { "meshport/\(keyHex)/send" }
    /// What became of each command.
    var sent: String { "meshport/\(keyHex)/sent" }
}
