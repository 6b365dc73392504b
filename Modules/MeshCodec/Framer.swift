/// Which way a framed byte stream flows: app -> radio frames start with `<` (0x3C),
/// radio -> app frames with `>` (0x3E). Both carry a u16 LE length, then the frame.
public enum FrameDirection: Sendable {
    case toRadio
    case fromRadio

    public var marker: UInt8 { self == .toRadio ? 0x3C : 0x3E }
}

/// The default largest frame: `MAX_FRAME_SIZE` since firmware v1.16 (172 before).
public let defaultMaxFrameLength = 176
public let legacyMaxFrameLength = 172

/// Why the framer dropped a header. Bytes are never lost silently: each case is counted.
public enum FramingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A header announced more than the configured maximum.
    case oversize(length: Int, max: Int)
    /// A header announced an empty frame.
    case zeroLength

    public var description: String {
        switch self {
        case let .oversize(length, max): "frame header announces \(length) bytes, above the maximum of \(max); resynchronising"
        case .zeroLength: "frame header announces 0 bytes; resynchronising"
        }
    }
}

/// Counters kept by a `FrameDecoder`.
public struct FramingStats: Hashable, Sendable {
    public var frames = 0
    /// Bytes outside any frame (noise, debug text, dropped headers).
    public var skippedBytes = 0
    public var oversizeHeaders = 0
    public var zeroLengthHeaders = 0
}

/// What `FrameDecoder.feed` reports, in stream order.
public enum FramingEvent: Hashable, Sendable {
    case frame([UInt8])
    case rejected(FramingError)
}

/// Incremental decoder for the serial/TCP framing. Accepts any chunking, skips bytes until
/// a start marker, rejects announced lengths above `maxFrameLength` and then resumes the
/// search right after the rejected marker. Memory is bounded by `maxFrameLength`.
///
/// A stray marker followed by a plausible length still swallows that many bytes: the
/// framing has no checksum, so no decoder can tell (the firmware behaves the same).
public struct FrameDecoder: Sendable {
    public let direction: FrameDirection
    public let maxFrameLength: Int
    public private(set) var stats = FramingStats()

    private enum State: Sendable {
        case idle
        case lengthLow
        case lengthHigh(low: UInt8)
        case body(remaining: Int)
    }

    private var state = State.idle
    private var body: [UInt8] = []

    public init(direction: FrameDirection = .fromRadio, maxFrameLength: Int = defaultMaxFrameLength) {
        precondition(maxFrameLength > 0 && maxFrameLength <= Int(UInt16.max), "maxFrameLength must be 1...65535")
        self.direction = direction
        self.maxFrameLength = maxFrameLength
    }

    /// True while a frame has started but not completed.
    public var isMidFrame: Bool {
        if case .idle = state { return false }
        return true
    }

    /// Feeds a chunk; `emit` is called for each complete frame or rejected header, in order.
    public mutating func feed<C: Collection>(_ chunk: C, _ emit: (FramingEvent) -> Void) where C.Element == UInt8 {
        let done: Void? = chunk.withContiguousStorageIfAvailable { feed(buffer: $0, emit) }
        if done == nil { Array(chunk).withUnsafeBufferPointer { feed(buffer: $0, emit) } }
    }

    private mutating func feed(buffer: UnsafeBufferPointer<UInt8>, _ emit: (FramingEvent) -> Void) {
        var i = 0
        let count = buffer.count
        while i < count {
            switch state {
            case .idle:
                // Bulk scan for the marker instead of stepping through the state machine.
                let marker = direction.marker
                var m = i
                while m < count && buffer[m] != marker { m += 1 }
                stats.skippedBytes += m - i
                if m == count { return }
                state = .lengthLow
                i = m + 1
            case let .body(remaining):
                // Bulk copy as much of the body as this chunk holds.
                let n = min(remaining, count - i)
                body.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<i + n]))
                i += n
                if n == remaining { completeFrame(emit) } else { state = .body(remaining: remaining - n) }
            case .lengthLow, .lengthHigh:
                step(buffer[i], emit)
                i += 1
            }
        }
    }

    private mutating func completeFrame(_ emit: (FramingEvent) -> Void) {
        stats.frames += 1
        // Hand the buffer over instead of copying it; the next frame reserves its own.
        let frame = body
        body = []
        state = .idle
        emit(.frame(frame))
    }

    /// Feeds a chunk and returns what it completed.
    public mutating func feed<C: Collection>(_ chunk: C) -> [FramingEvent] where C.Element == UInt8 {
        var out: [FramingEvent] = []
        feed(chunk) { out.append($0) }
        return out
    }

    /// Drops a partial frame, e.g. when the link is lost; returns how many bytes were dropped.
    @discardableResult
    public mutating func reset() -> Int {
        let dropped: Int
        switch state {
        case .idle: dropped = 0
        case .lengthLow: dropped = 1
        case .lengthHigh: dropped = 2
        case .body: dropped = 3 + body.count
        }
        stats.skippedBytes += dropped
        state = .idle
        body.removeAll(keepingCapacity: true)
        return dropped
    }

    private mutating func step(_ byte: UInt8, _ emit: (FramingEvent) -> Void) {
        switch state {
        case .idle:
            if byte == direction.marker { state = .lengthLow } else { stats.skippedBytes += 1 }
        case .lengthLow:
            state = .lengthHigh(low: byte)
        case let .lengthHigh(low):
            let length = Int(low) | Int(byte) << 8
            if length == 0 || length > maxFrameLength {
                let error: FramingError = length == 0 ? .zeroLength : .oversize(length: length, max: maxFrameLength)
                if length == 0 { stats.zeroLengthHeaders += 1 } else { stats.oversizeHeaders += 1 }
                stats.skippedBytes += 1
                state = .idle
                emit(.rejected(error))
                // The length bytes may themselves hold the next marker: scan them again.
                step(low, emit)
                step(byte, emit)
            } else {
                body.reserveCapacity(length)
                state = .body(remaining: length)
            }
        case let .body(remaining):
            body.append(byte)
            if remaining == 1 { completeFrame(emit) } else { state = .body(remaining: remaining - 1) }
        }
    }
}

/// Adds the serial/TCP header to frames.
public enum FrameEncoder {
    public static func encode(_ frame: [UInt8], direction: FrameDirection, maxFrameLength: Int = defaultMaxFrameLength) throws -> [UInt8] {
        guard !frame.isEmpty else { throw CodecError.empty }
        guard frame.count <= maxFrameLength else {
            throw CodecError.unencodable(frame: "frame 0x\(Hex.encode([frame[0]]))", field: "length",
                                         reason: "\(frame.count) bytes exceed the maximum frame of \(maxFrameLength)")
        }
        var out = [UInt8]()
        out.reserveCapacity(frame.count + 3)
        out.append(direction.marker)
        out.append(UInt8(frame.count & 0xFF))
        out.append(UInt8(frame.count >> 8))
        out.append(contentsOf: frame)
        return out
    }
}
