/// A fuzzer's input read as a sequence of choices and chunks, so one byte string can drive a
/// state machine step by step. Reading past the end gives zeros and empty chunks: every
/// input is a complete run, and shorter inputs are shorter runs.
public struct FuzzInput {
    public let bytes: [UInt8]
    public private(set) var offset = 0

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    public var isEmpty: Bool { offset >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func u16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    public mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }

    /// Up to `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = end }
        return Array(bytes[min(offset, end)..<end])
    }

    /// A chunk whose length is the next byte.
    public mutating func chunk() -> [UInt8] { take(Int(byte())) }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] { take(bytes.count - offset) }
}

/// A property a fuzz target checks failed: ends the run so libFuzzer saves the input.
public func fuzzFinding(_ message: String) -> Never {
    fatalError("fuzz finding: \(message)")
}

/// Hex of a short byte string, for findings.
public func fuzzHex(_ bytes: some Collection<UInt8>) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}
