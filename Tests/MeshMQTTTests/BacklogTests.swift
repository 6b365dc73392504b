import Foundation
import MeshportTestSupport
import Testing
@testable import MeshMQTT

@Suite struct BacklogTests {
    @Test func dropsTheOldestWhenFullAndCountsThem() throws {
        var backlog = try Backlog(capacity: 3, folder: nil)
        for index in 0..<5 { try backlog.append(MQTTMessage(topic: "t", text: "\(index)")) }
        #expect(backlog.count == 3)
        #expect(backlog.dropped == 2)
        #expect(backlog.first(from: 0)?.message.text == "2")
    }

    @Test func keepsOrderAcrossAcknowledgementsOutOfOrder() throws {
        var backlog = try Backlog(capacity: 10, folder: nil)
        for index in 0..<4 { try backlog.append(MQTTMessage(topic: "t", text: "\(index)")) }
        let first = try #require(backlog.first(from: 0))
        let second = try #require(backlog.first(from: first.sequence + 1))
        try backlog.remove(second.sequence)
        #expect(backlog.first(from: 0)?.message.text == "0")
        #expect(backlog.first(from: first.sequence + 1)?.message.text == "2")
        try backlog.remove(first.sequence)
        #expect(backlog.oldestSequence == second.sequence + 1)
    }

    /// QoS 1 messages survive until acknowledged, QoS 0 ones are not kept. The cursor is the
    /// oldest unacknowledged message, so one acknowledged out of order behind it is sent again
    /// after a restart (at least once), then the rest once the oldest is acknowledged.
    @Test func qos1MessagesSurviveInTheFolderUntilAcknowledged() throws {
        let folder = TempDir()
        let first = MQTTMessage(topic: "a/b", payload: [0, 1, 255], qos: .atLeastOnce, retain: true)
        let third = MQTTMessage(topic: "a/d", text: "acked out of order")
        do {
            var backlog = try Backlog(capacity: 4, folder: folder.url)
            try backlog.append(first)
            try backlog.append(MQTTMessage(topic: "a/c", text: "gone", qos: .atMostOnce))
            try backlog.append(third)
            let acked = try #require(backlog.first(from: 0).map { $0.sequence + 2 })
            try backlog.remove(acked)
        }
        var restored = try Backlog(capacity: 4, folder: folder.url)
        let oldest = try #require(restored.first(from: 0))
        #expect(restored.count == 2 && oldest.message == first)
        #expect(restored.first(from: oldest.sequence + 1)?.message == third)
        try restored.remove(oldest.sequence)
        #expect(try Backlog(capacity: 4, folder: folder.url).first(from: 0)?.message == third)
    }

    @Test func aTornTailRecordIsDroppedCountedAndCutOff() throws {
        let folder = TempDir()
        do {
            var backlog = try Backlog(capacity: 4, folder: folder.url)
            try backlog.append(MQTTMessage(topic: "t", text: "one"))
            try backlog.append(MQTTMessage(topic: "t", text: "two"))
        }
        let segment = folder.url.appendingPathComponent(try #require(try segmentFiles(in: folder).first))
        let whole = try Data(contentsOf: segment)
        let handle = try FileHandle(forWritingTo: segment)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([40, 0, 0, 0, 1, 2, 3, 4, 5]))   // a header, then 1 of 40 bytes
        try handle.close()

        let restored = try Backlog(capacity: 4, folder: folder.url)
        #expect(restored.count == 2 && restored.dropped == 1)
        #expect(restored.first(from: 0)?.message.text == "one")
        #expect(try Data(contentsOf: segment) == whole, "cut back to its last whole record")
        let again = try Backlog(capacity: 4, folder: folder.url)
        #expect(again.count == 2 && again.dropped == 0)
    }

    /// A record whose checksum does not match ends what is read of its segment.
    @Test func aDamagedRecordEndsItsSegment() throws {
        let folder = TempDir()
        do {
            var backlog = try Backlog(capacity: 4, folder: folder.url)
            for text in ["one", "two", "three"] { try backlog.append(MQTTMessage(topic: "t", text: text)) }
        }
        let segment = folder.url.appendingPathComponent(try #require(try segmentFiles(in: folder).first))
        var bytes = [UInt8](try Data(contentsOf: segment))
        let second = 8 + Int(bytes[0])   // after the first record (its length fits one byte)
        bytes[second + 20] ^= 0xFF
        try Data(bytes).write(to: segment)
        let restored = try Backlog(capacity: 4, folder: folder.url)
        #expect(restored.count == 1 && restored.dropped == 1)
        #expect(restored.first(from: 0)?.message.text == "one")
    }

    /// Acknowledgements move the cursor: a restart sends only what was not acknowledged, and
    /// goes on numbering after the last message, even when every segment was deleted.
    @Test func aRestartSendsWhatWasNotAcknowledgedInOrder() throws {
        let folder = TempDir()
        var lastSequence: UInt64 = 0
        do {
            var backlog = try Backlog(capacity: 100, folder: folder.url)
            for index in 0..<10 { try backlog.append(MQTTMessage(topic: "t", text: "\(index)")) }
            for _ in 0..<4 { try backlog.remove(try #require(backlog.first(from: 0)).sequence) }
            lastSequence = try #require(backlog.first(from: 0)).sequence + 5
        }
        var restored = try Backlog(capacity: 100, folder: folder.url)
        var texts: [String] = []
        var from: UInt64 = 0
        while let entry = restored.first(from: from) {
            texts.append(entry.message.text)
            from = entry.sequence + 1
        }
        #expect(texts == (4..<10).map { "\($0)" })
        while let entry = restored.first(from: 0) { try restored.remove(entry.sequence) }
        #expect(try segmentFiles(in: folder).isEmpty, "every message acknowledged: no segment left")

        var next = try Backlog(capacity: 100, folder: folder.url)
        #expect(next.count == 0)
        try next.append(MQTTMessage(topic: "t", text: "later"))
        #expect(try #require(next.first(from: 0)).sequence > lastSequence, "numbers never go back")
    }

    /// Full segments are closed and a new one started; each is deleted once every message in
    /// it is acknowledged or dropped.
    @Test func segmentsAreDeletedOnceWhollyAcknowledged() throws {
        let folder = TempDir()
        let log = try BacklogSegments(directory: folder.url.path, segmentBytes: 100)
        let message = Backlog.encode(MQTTMessage(topic: "t", text: String(repeating: "x", count: 60)))
        for sequence in UInt64(1)...6 { try log.append(sequence, message) }
        #expect(try segmentFiles(in: folder).count == 3, "two records per 100-byte segment")
        try log.advance(to: 4)
        #expect(try segmentFiles(in: folder) == [BacklogSegments.segmentName(3), BacklogSegments.segmentName(5)])
        let reopened = try BacklogSegments(directory: folder.url.path, segmentBytes: 100)
        #expect(reopened.takeRecovered().map(\.sequence) == [4, 5, 6])
        try log.advance(to: 7)
        #expect(try segmentFiles(in: folder).isEmpty)
    }
}
