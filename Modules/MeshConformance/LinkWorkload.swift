import Foundation
import MeshCodec

/// One run's figures: round-trip latency percentiles and windowed throughput.
public struct LinkFigures: Encodable, Sendable {
    public var p50Us: Double
    public var p99Us: Double
    public var framesPerSecond: Double
}

/// A benchmark workload on any link whose far side echoes `ConformanceHook.echo` frames:
/// round trips one at a time (latency), then `total` frames with `window` in flight
/// (throughput). `send` and `receive` are the path under test.
public struct LinkWorkload: Sendable {
    public var roundTrips = 3_000
    public var total = 20_000
    public var window = 16
    /// A typical command size (SEND_TXT_MSG with a short text), as an echo hook frame.
    public var frame: [UInt8] = [ConformanceHook.echo] + Array(repeating: 0x41, count: 40)

    public init() {}

    public func run(send: ([UInt8]) async throws -> Void, receive: () async throws -> [UInt8]) async throws -> LinkFigures {
        for _ in 0..<200 { try await send(frame); _ = try await receive() }  // warm-up
        var samples: [Double] = []
        samples.reserveCapacity(roundTrips)
        let clock = ContinuousClock()
        for _ in 0..<roundTrips {
            let start = clock.now
            try await send(frame)
            let answer = try await receive()
            samples.append(microseconds(clock.now - start))
            guard answer == frame else { throw Failure("the echo differs from the frame sent") }
        }
        samples.sort()
        let start = clock.now
        var sent = 0
        while sent < min(window, total) { try await send(frame); sent += 1 }
        for _ in 0..<total {
            _ = try await receive()
            if sent < total { try await send(frame); sent += 1 }
        }
        let seconds = microseconds(clock.now - start) / 1e6
        return LinkFigures(p50Us: samples[samples.count / 2], p99Us: samples[samples.count * 99 / 100],
                           framesPerSecond: Double(total) / seconds)
    }

    private func microseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }
}
