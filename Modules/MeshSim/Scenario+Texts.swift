import MeshCodec

/// What another node's firmware can send, so a scenario cannot ask for a message no radio
/// would hear (Docs/meshsim-scenarios.md, "Texts"): an over-long text would not fit one packet.
extension Scenario {
    /// A room server keeps at most this many bytes of a post.
    static let maxPostBytes = 151

    /// A DM's text: at most 160 bytes, as SEND_TXT_MSG allows.
    static func dmText(_ text: String, _ at: String) throws -> String {
        try fits(text, text.utf8.count, SendTextMessage.maxTextBytes, "a DM's text", at)
    }

    /// A channel message: "<sender>: <text>" in at most 160 bytes.
    static func channelText(_ text: String, sender: String, _ at: String) throws -> String {
        try fits(text, sender.utf8.count + 2 + text.utf8.count, SendChannelTextMessage.maxTotalBytes,
                 "a channel message's \"\(sender): <text>\"", at)
    }

    static func postText(_ text: String, _ at: String) throws -> String {
        try fits(text, text.utf8.count, maxPostBytes, "a room post", at)
    }

    private static func fits(_ text: String, _ bytes: Int, _ limit: Int, _ what: String, _ at: String) throws -> String {
        guard bytes <= limit else { throw ScenarioError(at, "\(bytes) bytes; \(what) is at most \(limit) bytes in UTF-8") }
        return text
    }
}
