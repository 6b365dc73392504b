import Foundation
import MeshCodec

/// Deterministic synthetic radio data for the seed harness, benchmarks and tests: the same
/// seed gives the same keys and texts on every run.
public struct SyntheticData: Sendable {
    private var rng: SplitMix64

    public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { rng.next() }

    public mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    public mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(next() >> 11) / Double(1 << 53)
    }

    public mutating func publicKey() -> PublicKey {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 {
            let v = next()
            for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
        }
        return PublicKey(bytes)!  // always 32 bytes
    }

    /// Words drawn with a skewed distribution (common words common, rare ones rare), with
    /// some Cyrillic, CJK and emoji, as real channels have.
    public static let words: [String] = [
        "the", "and", "hello", "repeater", "signal", "mesh", "node", "battery", "weather", "antenna", "path", "flood", "channel",
        "test", "check", "copy", "roger", "good", "morning", "evening", "link", "range", "hill", "tower", "solar", "firmware",
        "update", "reboot", "relay", "gateway", "noise", "snr", "rssi", "hike", "trail", "camp", "radio", "lora", "meshcore",
        "привет", "сеть", "антенна", "погода", "ретранслятор", "сигнал", "日本語", "東京", "中继", "信号", "天气", "안녕하세요",
        "🎉", "📡", "👍", "🔋", "⛰️", "mountain", "valley", "river", "bridge", "station", "summit", "ridge", "forest", "coverage",
        "telemetry", "sensor", "temperature", "humidity", "pressure", "voltage", "uptime", "packet", "duplicate", "advert",
    ]

    public mutating func word() -> String {
        // Squaring a uniform draw skews it towards the front of the list.
        let u = double(0...1)
        return Self.words[min(Self.words.count - 1, Int(u * u * Double(Self.words.count)))]
    }

    static let syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "be", "do", "fu", "ga", "hi", "ju", "ke", "la", "ma", "no", "pi", "so"]

    /// A word of a large made-up vocabulary (8,000 words, Zipf-like): names, places and
    /// jargon, the long tail that real chat has and a search usually looks for.
    public mutating func rareWord() -> String {
        let rank = Int(pow(8_000.0, double(0...1)))  // log-uniform rank: a few common, most rare
        let n = min(rank, 7_999)
        return Self.syllables[n % 20] + Self.syllables[n / 20 % 20] + Self.syllables[n / 400 % 20]
    }

    /// Mostly common words, one in four from the long tail.
    public mutating func sentence(words count: Int) -> String {
        (0..<count).map { _ in next() % 4 == 0 ? rareWord() : word() }.joined(separator: " ")
    }

    public mutating func nodeName(_ n: Int) -> String { "Node \(String(n + 100_000).dropFirst())" }
}
