/// `txt_type`: 0 plain, 1 CLI data (repeater commands and replies), 2 signed plain.
public struct TextType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let plain = TextType(rawValue: 0)
    public static let cliData = TextType(rawValue: 1)
    public static let signedPlain = TextType(rawValue: 2)
}

/// Message frames exist in two layouts: legacy (0x07/0x08, for apps that declared no
/// protocol version) and V3 (0x10/0x11, with SNR). The format is fixed when the radio queues
/// the message, so a client must read both.
public enum MessageFormat: Hashable, Sendable {
    case legacy
    case v3
}

/// A direct message from a contact (Docs/protocol.md §4.3).
public struct ContactMessage: Hashable, Sendable {
    public var format: MessageFormat
    /// SNR × 4 (V3 only; 0 in legacy frames).
    public var snrX4: Int8
    public var senderPrefix: KeyPrefix
    /// `.none` when the packet arrived direct, else its flood path length.
    public var pathLength: PathLength
    public var textType: TextType
    public var senderTimestamp: UInt32
    /// Signed messages (txt_type 2): the original author's 4-byte key prefix.
    public var authorPrefix: KeyPrefix?
    public var text: String

    public init(format: MessageFormat = .v3, snrX4: Int8 = 0, senderPrefix: KeyPrefix, pathLength: PathLength, textType: TextType = .plain,
                senderTimestamp: UInt32, authorPrefix: KeyPrefix? = nil, text: String) {
        self.format = format
        self.snrX4 = snrX4
        self.senderPrefix = senderPrefix
        self.pathLength = pathLength
        self.textType = textType
        self.senderTimestamp = senderTimestamp
        self.authorPrefix = authorPrefix
        self.text = text
    }

    public var snr: Double { Double(snrX4) / 4 }

    static func read(_ r: inout ByteReader, format: MessageFormat) throws -> ContactMessage {
        var snr: Int8 = 0
        if format == .v3 {
            snr = try r.i8("SNR")
            _ = try r.u16("reserved")
        }
        let prefix = try r.prefix6("sender prefix")
        let path = PathLength(raw: try r.u8("path_len"))
        let type = TextType(rawValue: try r.u8("txt_type"))
        let ts = try r.u32("sender timestamp")
        var author: KeyPrefix?
        if type == .signedPlain { author = KeyPrefix(unchecked: try r.bytes(4, "author prefix")) }
        return ContactMessage(format: format, snrX4: snr, senderPrefix: prefix, pathLength: path, textType: type,
                              senderTimestamp: ts, authorPrefix: author, text: r.restString())
    }

    func write(_ w: inout ByteWriter) {
        if format == .v3 {
            w.i8(snrX4)
            w.u16(0)
        }
        w.append(senderPrefix.bytes)
        w.u8(pathLength.raw)
        w.u8(textType.rawValue)
        w.u32(senderTimestamp)
        if textType == .signedPlain {
            let author = authorPrefix?.bytes.prefix(4) ?? []
            w.append(author)
            w.append(repeatElement(0, count: 4 - author.count))
        }
        w.string(text)
    }
}

/// A channel message (Docs/protocol.md §4.4). The text is `"<sender>: <message>"` as the
/// sender's firmware formatted it; the name is not authenticated.
public struct ChannelMessage: Hashable, Sendable {
    public var format: MessageFormat
    public var snrX4: Int8
    public var channelIndex: UInt8
    public var pathLength: PathLength
    public var textType: TextType
    public var senderTimestamp: UInt32
    public var text: String

    public init(format: MessageFormat = .v3, snrX4: Int8 = 0, channelIndex: UInt8, pathLength: PathLength, textType: TextType = .plain,
                senderTimestamp: UInt32, text: String) {
        self.format = format
        self.snrX4 = snrX4
        self.channelIndex = channelIndex
        self.pathLength = pathLength
        self.textType = textType
        self.senderTimestamp = senderTimestamp
        self.text = text
    }

    public var snr: Double { Double(snrX4) / 4 }

    /// The sender's claimed name and the message body, split at the first `": "`;
    /// nil sender when the text has no such separator.
    public var senderAndBody: (sender: String?, body: String) {
        let u = Array(text.utf8)
        guard u.count >= 2, let at = (0..<(u.count - 1)).first(where: { u[$0] == UInt8(ascii: ":") && u[$0 + 1] == UInt8(ascii: " ") }) else {
            return (nil, text)
        }
        return (String(decoding: u[..<at], as: UTF8.self), String(decoding: u[(at + 2)...], as: UTF8.self))
    }

    static func read(_ r: inout ByteReader, format: MessageFormat) throws -> ChannelMessage {
        var snr: Int8 = 0
        if format == .v3 {
            snr = try r.i8("SNR")
            _ = try r.u16("reserved")
        }
        return ChannelMessage(format: format, snrX4: snr, channelIndex: try r.u8("channel index"),
                              pathLength: PathLength(raw: try r.u8("path_len")), textType: TextType(rawValue: try r.u8("txt_type")),
                              senderTimestamp: try r.u32("sender timestamp"), text: r.restString())
    }

    func write(_ w: inout ByteWriter) {
        if format == .v3 {
            w.i8(snrX4)
            w.u16(0)
        }
        w.u8(channelIndex)
        w.u8(pathLength.raw)
        w.u8(textType.rawValue)
        w.u32(senderTimestamp)
        w.string(text)
    }
}

/// A channel datagram (CHANNEL_DATA_RECV, 27; v1.15+).
public struct ChannelDataMessage: Hashable, Sendable {
    public var snrX4: Int8
    public var channelIndex: UInt8
    public var pathLength: PathLength
    /// Application id; 0 is reserved.
    public var dataType: UInt16
    public var data: [UInt8]

    public init(snrX4: Int8 = 0, channelIndex: UInt8, pathLength: PathLength, dataType: UInt16, data: [UInt8]) {
        self.snrX4 = snrX4
        self.channelIndex = channelIndex
        self.pathLength = pathLength
        self.dataType = dataType
        self.data = data
    }

    static func read(_ r: inout ByteReader) throws -> ChannelDataMessage {
        let snr = try r.i8("SNR")
        _ = try r.u16("reserved")
        let index = try r.u8("channel index")
        let path = PathLength(raw: try r.u8("path_len"))
        let type = try r.u16("data_type")
        let count = Int(try r.u8("data length"))
        return ChannelDataMessage(snrX4: snr, channelIndex: index, pathLength: path, dataType: type, data: try r.bytes(count, "data"))
    }

    func write(_ w: inout ByteWriter) {
        w.i8(snrX4)
        w.u16(0)
        w.u8(channelIndex)
        w.u8(pathLength.raw)
        w.u16(dataType)
        w.u8(UInt8(clamping: data.count))
        w.append(data.prefix(255))
    }
}
