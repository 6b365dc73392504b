import MeshCodec

/// De-duplication keys: the first 8 bytes of SHA-256 over what identifies a message, so a
/// message the radio hands over twice (a resync after a crash, a flood heard twice) is
/// stored once. SHA-256 rather than a fast hash: channel text is chosen by strangers, and
/// a crafted collision would silently drop someone else's message.
enum DedupeKey {
    static func direct(_ m: ContactMessage) -> Int64 {
        key("d", m.senderPrefix.bytes, m.senderTimestamp, m.textType.rawValue, m.text)
    }

    static func channel(_ m: ChannelMessage) -> Int64 {
        key("c", [m.channelIndex], m.senderTimestamp, m.textType.rawValue, m.text)
    }

    static func room(_ m: ContactMessage) -> Int64 {
        key("r", m.authorPrefix?.bytes ?? m.senderPrefix.bytes, m.senderTimestamp, m.textType.rawValue, m.text)
    }

    /// Outgoing messages are unique by intent: two identical sends are two messages.
    static func outgoing() -> Int64 { Int64.random(in: .min ... .max) }

    private static func key(_ kind: Character, _ origin: [UInt8], _ timestamp: UInt32, _ textType: UInt8, _ text: String) -> Int64 {
        var bytes: [UInt8] = [kind.asciiValue ?? 0, UInt8(origin.count)]
        bytes += origin
        bytes += [UInt8(truncatingIfNeeded: timestamp), UInt8(truncatingIfNeeded: timestamp >> 8),
                  UInt8(truncatingIfNeeded: timestamp >> 16), UInt8(truncatingIfNeeded: timestamp >> 24), textType]
        bytes += text.utf8
        let digest = SHA256.hash(bytes)
        return Int64(bitPattern: digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}
