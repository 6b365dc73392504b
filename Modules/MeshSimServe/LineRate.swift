import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A serial line's speed (`meshport sim --pty --baud N`): bytes cross no faster than a UART
/// at `baud` carries them with 8N1 framing (10 bits a byte), in bursts of about a
/// millisecond, as a USB-serial bridge hands them over. A pty alone carries a frame at once;
/// a radio on 115,200 Bd takes 13 ms for one contact.
public struct LineRate: Sendable, Equatable, CustomStringConvertible {
    public static let bauds = 300...12_000_000

    public let baud: Int

    public init(baud: Int) throws(PeerError) {
        guard Self.bauds.contains(baud) else {
            throw PeerError("--baud \(baud): a serial line runs at \(Self.bauds.lowerBound) to \(Self.bauds.upperBound) Bd")
        }
        self.baud = baud
    }

    public var description: String { "\(baud) Bd" }

    /// Bytes a burst carries: what the line moves in a millisecond, at least one.
    public var burst: Int { max(1, baud / 10_000) }

    /// The time `count` bytes take on the line.
    public func duration(of count: Int) -> Duration { .nanoseconds(Int64(count) * 10_000_000_000 / Int64(baud)) }
}

/// One direction of a paced line: it knows when the line is free again, so bytes handed over
/// back to back queue behind each other as on a wire, and an idle line starts at once.
final class LinePacer: @unchecked Sendable {
    let rate: LineRate
    private let lock = NSLock()
    private var freeAt = ContinuousClock.now

    init(_ rate: LineRate) { self.rate = rate }

    /// When `count` bytes handed over now start to cross (after those before them), the line
    /// then being busy until they all have. Byte k of them has crossed at the start plus the
    /// time of k + 1 bytes: a writer that wakes late catches up, as a UART never drifts.
    func reserve(_ count: Int) -> ContinuousClock.Instant {
        lock.withLock {
            let start = max(freeAt, .now)
            freeAt = start + rate.duration(of: count)
            return start
        }
    }

    /// Sleeps until `deadline`.
    static func wait(until deadline: ContinuousClock.Instant) {
        let left = deadline - .now
        guard left > .zero else { return }
        let (seconds, attoseconds) = left.components
        var span = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var rest = timespec()
        while nanosleep(&span, &rest) != 0, errno == EINTR { span = rest }
    }
}
