/// How a worker is doing, for its log and for /metrics.
public struct IngestCounts: Sendable, Equatable {
    /// Messages taken from the broker(s) into the spool by this process.
    public var received = 0
    /// Records written to the region store (reports, hearings and rejected messages alike).
    public var written = 0
    /// Hearings whose `raw` is not an air packet (kept raw, `decoded` nil).
    public var undecodable = 0
    /// Rejected messages by the kind of reason (`IngestRejectionKind` raw values).
    public var rejected: [String: Int] = [:]
    /// Messages in the spool not yet written.
    public var spoolDepth = 0
    /// The most that waited at once: at the spool's bound the broker is being held back.
    public var deepestSpoolDepth = 0
    /// Failed writes to the region store, each retried.
    public var sinkRetries = 0
    /// An anchor's plain copies written because the group's subscriptions may have been
    /// missing (after a broker restart), and those skipped because a member had them.
    public var anchorWrittenAlone = 0
    public var anchorSkipped = 0

    public init() {}

    public var rejectedTotal: Int { rejected.values.reduce(0, +) }

    /// One sentence for the log.
    public var summary: String {
        let reasons = rejected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "\(received) received, \(written) written, \(undecodable) undecodable, \(rejectedTotal) rejected"
            + (reasons.isEmpty ? "" : " (\(reasons))") + ", \(spoolDepth) waiting in the spool, \(sinkRetries) database retries"
            + (anchorWrittenAlone + anchorSkipped == 0 ? "." : "; as the anchor, \(anchorWrittenAlone) copies written alone and \(anchorSkipped) skipped.")
    }
}
