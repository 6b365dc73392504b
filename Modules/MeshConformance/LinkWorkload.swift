import Foundation
import MeshCodec
import MeshConformanceCommands

/// One run's figures: round-trip latency percentiles and windowed throughput.
public struct LinkFigures: Encodable, Sendable {
    public var p50Us: Double
    public var p99Us: Double
    public var framesPerSecond: Double
}

/// One path under test: how a frame goes out and how its echo comes back.
public struct LinkEnds {
    public var send: ([UInt8]) async throws -> Void
    public var receive: () async throws -> [UInt8]

    public init(send: @escaping ([UInt8]) async throws -> Void, receive: @escaping () async throws -> [UInt8]) {
        self.send = send
        self.receive = receive
    }
}

/// A benchmark workload on any link whose far side echoes `ConformanceCommand.echo` frames:
/// round trips one at a time (latency), then `total` frames with `window` in flight
/// (throughput).
public struct LinkWorkload: Sendable {
    public var roundTrips = 3_000
    public var total = 20_000
    public var window = 16
    /// A typical command size (SEND_TXT_MSG with a short text), as an echo command frame.
    public var frame: [UInt8] = [ConformanceCommand.echo] + Array(repeating: 0x41, count: 40)
    /// Throughput blocks per path in `compare`.
    public var blocks = 8
    static let warmUp = 200

    public init() {}

    public func run(send: ([UInt8]) async throws -> Void, receive: () async throws -> [UInt8]) async throws -> LinkFigures {
        for _ in 0..<Self.warmUp { try await send(frame); _ = try await receive() }
        var samples: [Double] = []
        samples.reserveCapacity(roundTrips)
        for _ in 0..<roundTrips { samples.append(try await roundTrip(send: send, receive: receive)) }
        let seconds = try await windowed(total, send: send, receive: receive)
        return figures(samples, frames: total, seconds: seconds)
    }

    /// Both paths in the same stretch of time: round trips alternate between them (and which
    /// goes first alternates too), and throughput runs in alternating blocks of
    /// `total / blocks` frames. A host that speeds up or slows down during the run weighs on
    /// both alike, which separate runs one after the other cannot promise.
    public func compare(_ a: LinkEnds, _ b: LinkEnds) async throws -> (LinkFigures, LinkFigures) {
        for _ in 0..<Self.warmUp {
            for path in [a, b] { try await path.send(frame); _ = try await path.receive() }
        }
        var samples: ([Double], [Double]) = ([], [])
        for i in 0..<roundTrips {
            for first in i % 2 == 0 ? [true, false] : [false, true] {
                if first { samples.0.append(try await roundTrip(send: a.send, receive: a.receive)) }
                else { samples.1.append(try await roundTrip(send: b.send, receive: b.receive)) }
            }
        }
        let frames = max(window, total / max(1, blocks))
        var seconds = (0.0, 0.0)
        for i in 0..<max(1, blocks) {
            for first in i % 2 == 0 ? [true, false] : [false, true] {
                if first { seconds.0 += try await windowed(frames, send: a.send, receive: a.receive) }
                else { seconds.1 += try await windowed(frames, send: b.send, receive: b.receive) }
            }
        }
        let sent = frames * max(1, blocks)
        return (figures(samples.0, frames: sent, seconds: seconds.0), figures(samples.1, frames: sent, seconds: seconds.1))
    }

    /// Microseconds from sending the frame to its echo.
    private func roundTrip(send: ([UInt8]) async throws -> Void, receive: () async throws -> [UInt8]) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await send(frame)
        let answer = try await receive()
        let elapsed = microseconds(clock.now - start)
        guard answer == frame else { throw Failure("the echo differs from the frame sent") }
        return elapsed
    }

    /// Seconds to get `count` echoes with `window` frames in flight.
    private func windowed(_ count: Int, send: ([UInt8]) async throws -> Void, receive: () async throws -> [UInt8]) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        var sent = 0
        while sent < min(window, count) { try await send(frame); sent += 1 }
        for _ in 0..<count {
            _ = try await receive()
            if sent < count { try await send(frame); sent += 1 }
        }
        return microseconds(clock.now - start) / 1e6
    }

    private func figures(_ samples: [Double], frames: Int, seconds: Double) -> LinkFigures {
        let sorted = samples.sorted()
        return LinkFigures(p50Us: sorted[sorted.count / 2], p99Us: sorted[sorted.count * 99 / 100],
                           framesPerSecond: Double(frames) / seconds)
    }

    private func microseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }
}
