import MeshStore

/// The `ack ID:SEQ ...` lines of the crash test's ingest workload (Tests/Tools/TestIngest),
/// and their check against a store.
public enum IngestAcks {
    /// Only complete lines count: a line cut by the kill was never fully acknowledged.
    public static func parse(_ text: String) -> [(id: Int64, seq: Int)] {
        var out: [(Int64, Int)] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if !text.hasSuffix("\n") { lines.removeLast() }
        for line in lines where line.hasPrefix("ack ") {
            for pair in line.dropFirst(4).split(separator: " ") {
                let parts = pair.split(separator: ":")
                if parts.count == 2, let id = Int64(parts[0]), let seq = Int(parts[1]) { out.append((id, seq)) }
            }
        }
        return out
    }

    /// Acknowledged messages that are not stored with their sequence number.
    public static func missing(_ acks: [(id: Int64, seq: Int)], in store: MeshStore, radio: RadioID) throws -> [(id: Int64, seq: Int)] {
        var missing: [(Int64, Int)] = []
        for ack in acks {
            let message = try store.reader.message(radio, id: ack.id)
            if message?.senderTimestamp != UInt32(ack.seq) || message?.text.contains("ingest #\(ack.seq) ") != true { missing.append(ack) }
        }
        return missing
    }
}
