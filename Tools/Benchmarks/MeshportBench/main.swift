import Foundation
import MeshCodec

// Codec benchmark. Writes the corpus it measures (one hex frame per line) so the peer,
// meshcore_py, is measured on the same frames in the same run, and prints one JSON object:
// {"decode": {"frames_per_s", "mb_per_s", "frames"}, "framing": {...}}.
// Usage: MeshportBench CORPUS_OUT [FRAMES]

struct Rng: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}

/// A mix like a first sync followed by traffic: contacts, messages, pushes.
func corpus(count: Int) throws -> [[UInt8]] {
    var rng = Rng(state: 2026)
    func key() -> PublicKey { PublicKey((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })! }
    func words(_ n: Int) -> String { (0..<n).map { _ in ["hello", "mesh", "repeater", "on", "the", "hill", "ok", "73", "👋", "привет"].randomElement(using: &rng)! }.joined(separator: " ") }
    var frames: [[UInt8]] = []
    for i in 0..<count {
        let k = key()
        let frame: RadioFrame
        switch i % 20 {
        case 0...7:
            let hops = Int.random(in: 0...5, using: &rng)
            frame = .response(.contact(Contact(publicKey: k, type: NodeType(rawValue: UInt8.random(in: 1...4, using: &rng)), flags: [],
                                               outPath: hops == 0 ? .none : Path(length: PathLength(hops: hops)!, bytes: (0..<hops).map { _ in UInt8.random(in: 0...255, using: &rng) }),
                                               name: "node-\(i)", lastAdvert: UInt32(1_763_000_000 + i),
                                               position: Coordinates(latitudeE6: Int32.random(in: -90_000_000...90_000_000, using: &rng), longitudeE6: 13_000_000),
                                               lastModified: UInt32(1_763_000_100 + i))))
        case 8...12:
            frame = .response(.contactMessage(ContactMessage(snrX4: Int8.random(in: -40...40, using: &rng), senderPrefix: k.prefix(), pathLength: PathLength(raw: UInt8.random(in: 0...3, using: &rng)),
                                                             senderTimestamp: UInt32(1_763_000_000 + i), text: words(Int.random(in: 2...20, using: &rng)))))
        case 13...15:
            frame = .response(.channelMessage(ChannelMessage(snrX4: 12, channelIndex: UInt8(i % 3), pathLength: PathLength(raw: 2), senderTimestamp: UInt32(1_763_000_000 + i),
                                                             text: "node-\(i % 50): " + words(Int.random(in: 2...15, using: &rng)))))
        case 16: frame = .push(.advert(k))
        case 17: frame = .push(.sendConfirmed(ackCode: AckCode(UInt32(i)), roundTripMs: UInt32(1000 + i)))
        case 18: frame = .push(.logRxData(ReceivedPacket(snrX4: 20, rssi: -90, payload: (0..<Int.random(in: 20...100, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })))
        default: frame = .response(.sent(Sent(flood: i % 2 == 0, ackCode: AckCode(UInt32(i)), suggestedTimeoutMs: 3400)))
        }
        frames.append(try frame.encode())
    }
    return frames
}

@inline(never) func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }

/// Best of `rounds`, each running `body` repeatedly for at least `minSeconds`; returns ops/s.
func measure(rounds: Int = 3, minSeconds: Double = 1.0, opsPerCall: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = 0.0
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        var calls = 0
        let start = clock.now
        var elapsed = 0.0
        repeat {
            try body()
            calls += 1
            let d = clock.now - start
            elapsed = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        } while elapsed < minSeconds
        best = max(best, Double(calls * opsPerCall) / elapsed)
    }
    return best
}

let args = CommandLine.arguments
let corpusPath = args.count > 1 ? args[1] : "bench-corpus.txt"
let count = args.count > 2 ? Int(args[2]) ?? 2000 : 2000
let frames = try corpus(count: count)
try frames.map { Hex.encode($0) }.joined(separator: "\n").appending("\n").write(toFile: corpusPath, atomically: true, encoding: .utf8)
let frameBytes = frames.reduce(0) { $0 + $1.count }

var decoded = 0
let decodeRate = try measure(opsPerCall: frames.count) {
    for f in frames {
        let value = try RadioFrame(decoding: f)
        decoded &+= Int(value.code)
    }
}
blackHole(decoded)

var stream: [UInt8] = []
for f in frames { stream += try FrameEncoder.encode(f, direction: .fromRadio) }
let chunks = stride(from: 0, to: stream.count, by: 64).map { Array(stream[$0..<min($0 + 64, stream.count)]) }
var framed = 0
let framingRate = measure(opsPerCall: frames.count) {
    var decoder = FrameDecoder(direction: .fromRadio)
    for c in chunks { decoder.feed(c) { if case .frame = $0 { framed += 1 } } }
    precondition(decoder.stats.frames == frames.count, "framing lost frames")
}
blackHole(framed)

let result: [String: [String: Double]] = [
    "decode": ["frames_per_s": decodeRate, "mb_per_s": decodeRate * Double(frameBytes) / Double(frames.count) / 1e6, "frames": Double(frames.count)],
    "framing": ["frames_per_s": framingRate, "mb_per_s": framingRate * Double(stream.count) / Double(frames.count) / 1e6, "frames": Double(frames.count)],
]
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
