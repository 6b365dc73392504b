import Foundation
import MeshCodec
import MeshSim

/// `meshport sim --heard-log FILE`: one JSON line per packet a radio heard (Docs/meshsim.md),
/// so a test can compare what a region stored with what the air delivered. Lines from all
/// radios go through one lock, whole, in the order they were heard.
public final class HeardLog: @unchecked Sendable {
    private let lock = NSLock()
    private let file: FileHandle
    private let path: String
    private var failure: String?
    private var closed = false

    /// Creates `path` (replacing what was there).
    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw PeerError("cannot create the heard log \(path)")
        }
        guard let file = FileHandle(forWritingAtPath: path) else { throw PeerError("cannot open the heard log \(path) for writing") }
        self.file = file
        self.path = path
    }

    /// The first write that failed, as a sentence; nil while every line got out.
    public var problem: String? { lock.withLock { failure } }

    public func record(_ hearing: SimHearing) {
        let line = Line(radio: hearing.radio.hex, raw: Hex.encode(hearing.packet.payload), snr: hearing.packet.snr, rssi: Int(hearing.packet.rssi),
                        elapsedMs: hearing.elapsed.components.seconds * 1000 + hearing.elapsed.components.attoseconds / 1_000_000_000_000_000,
                        time: Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date()), pushed: hearing.pushed)
        lock.withLock {
            guard failure == nil, !closed else { return }
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                try file.write(contentsOf: encoder.encode(line) + Data("\n".utf8))
            } catch {
                failure = "cannot write the heard log \(path): \(error.localizedDescription)"
            }
        }
    }

    /// Closes the file; hearings recorded later are left out.
    public func close() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            do {
                try file.close()
            } catch {
                failure = failure ?? "cannot close the heard log \(path): \(error.localizedDescription)"
            }
        }
    }

    private struct Line: Encodable {
        var radio: String
        var raw: String
        var snr: Double
        var rssi: Int
        var elapsedMs: Int64
        var time: String
        var pushed: Bool
    }
}
