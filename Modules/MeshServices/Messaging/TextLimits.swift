import MeshCodec

/// The firmware's text limits (MAX_TEXT_LEN, Docs/protocol.md §3 and §7.6), checked before
/// anything is saved or sent.
enum TextLimits {
    /// A DM's text: not empty, at most `limit` UTF-8 bytes.
    static func checkDirect(_ text: String, to contact: PublicKey, limit: Int) throws(MessagingError) {
        let conversation = "contact \(contact.prefix().hex)"
        let bytes = text.utf8.count
        guard bytes > 0 else { throw .emptyText(conversation: conversation) }
        guard bytes <= limit else { throw .textTooLong(conversation: conversation, bytes: bytes, limit: limit) }
    }

    /// A channel message goes on air as "<our name>: <text>", which must fit 160 bytes
    /// (the firmware would cut the rest silently). Returns that line.
    static func checkChannel(_ text: String, channel: UInt8, senderName: String) throws(MessagingError) -> [UInt8] {
        let prefix = Array("\(senderName): ".utf8), body = Array(text.utf8)
        guard !body.isEmpty else { throw .emptyText(conversation: "channel \(channel)") }
        let limit = SendChannelTextMessage.maxTotalBytes
        guard prefix.count + body.count <= limit else {
            throw .channelTextTooLong(channel: channel, prefixBytes: prefix.count, textBytes: body.count, limit: limit)
        }
        return prefix + body
    }
}
