/// A frame that could not be decoded or encoded. Every case says what and where.
public enum CodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The frame ended before `field` (which starts at `offset` and needs `needed` bytes).
    case truncated(frame: String, field: String, offset: Int, needed: Int, available: Int)
    /// The frame carries bytes after its last field.
    case overlong(frame: String, expected: Int, actual: Int)
    /// A field holds a value the protocol does not allow.
    case invalidField(frame: String, field: String, offset: Int, reason: String)
    /// A frame of zero bytes (no code byte).
    case empty
    /// A value cannot be encoded (for example a text longer than its field).
    case unencodable(frame: String, field: String, reason: String)

    public var description: String {
        switch self {
        case let .truncated(frame, field, offset, needed, available):
            return "\(frame): frame ends before \(field) at offset \(offset) (needs \(needed) bytes, \(available) left)"
        case let .overlong(frame, expected, actual):
            return "\(frame): \(actual) bytes where at most \(expected) are defined"
        case let .invalidField(frame, field, offset, reason):
            return "\(frame): invalid \(field) at offset \(offset): \(reason)"
        case .empty:
            return "empty frame: no code byte"
        case let .unencodable(frame, field, reason):
            return "\(frame): cannot encode \(field): \(reason)"
        }
    }
}

/// `RESP_CODE_ERR` codes (Docs/protocol.md §6) as a typed error.
public enum RadioError: Error, Hashable, Sendable, CustomStringConvertible {
    case unsupportedCommand   // 1
    case notFound             // 2
    case tableFull            // 3
    case badState             // 4
    case fileIOError          // 5
    case illegalArgument      // 6
    /// Firmware before v1.4.0 sent `RESP_CODE_ERR` without a code byte.
    case unspecified
    case other(UInt8)

    public init(code: UInt8) {
        switch code {
        case 1: self = .unsupportedCommand
        case 2: self = .notFound
        case 3: self = .tableFull
        case 4: self = .badState
        case 5: self = .fileIOError
        case 6: self = .illegalArgument
        default: self = .other(code)
        }
    }

    /// The wire byte, or nil for the code-less legacy form.
    public var code: UInt8? {
        switch self {
        case .unsupportedCommand: return 1
        case .notFound: return 2
        case .tableFull: return 3
        case .badState: return 4
        case .fileIOError: return 5
        case .illegalArgument: return 6
        case .unspecified: return nil
        case let .other(c): return c
        }
    }

    public var description: String {
        switch self {
        case .unsupportedCommand: return "ERR_CODE_UNSUPPORTED_CMD (1): the radio does not support this command or its arguments"
        case .notFound: return "ERR_CODE_NOT_FOUND (2): unknown contact, channel or entry"
        case .tableFull: return "ERR_CODE_TABLE_FULL (3): a table or queue on the radio is full"
        case .badState: return "ERR_CODE_BAD_STATE (4): the radio is not in a state to do this"
        case .fileIOError: return "ERR_CODE_FILE_IO_ERROR (5): the radio's storage failed"
        case .illegalArgument: return "ERR_CODE_ILLEGAL_ARG (6): a value is out of range"
        case .unspecified: return "RESP_CODE_ERR without a code (firmware before v1.4.0)"
        case let .other(c): return "RESP_CODE_ERR with unknown code \(c)"
        }
    }
}
