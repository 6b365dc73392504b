import MeshIngest
import Testing

/// A worker's counts as its log prints them (Modules/MeshIngest/IngestCounts.swift).
@Suite struct IngestCountsTests {
    @Test func countsReadAsOneSentence() {
        var counts = IngestCounts()
        counts.received = 12
        counts.written = 10
        counts.rejected = ["not-hex": 1, "bad-json": 2]
        counts.spoolDepth = 2
        #expect(counts.summary == "12 received, 10 written, 0 undecodable, 3 rejected (2 bad-json, 1 not-hex), 2 waiting in the spool, 0 database retries.")
        counts.anchorWrittenAlone = 7
        counts.anchorSkipped = 5
        #expect(counts.summary.hasSuffix("0 database retries; as the anchor, 7 copies written alone and 5 skipped."))
    }
}
