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

    @Test func qos1MessagesSurviveInTheFolderUntilAcknowledged() throws {
        let folder = TempDir()
        do {
            var backlog = try Backlog(capacity: 4, folder: folder.url)
            try backlog.append(MQTTMessage(topic: "a/b", payload: [0, 1, 255], qos: .atLeastOnce, retain: true))
            try backlog.append(MQTTMessage(topic: "a/c", text: "gone", qos: .atMostOnce))
            try backlog.append(MQTTMessage(topic: "a/d", text: "acked"))
            let acked = try #require(backlog.first(from: 0).map { $0.sequence + 2 })
            try backlog.remove(acked)
        }
        let restored = try Backlog(capacity: 4, folder: folder.url)
        #expect(restored.count == 1)
        #expect(restored.first(from: 0)?.message == MQTTMessage(topic: "a/b", payload: [0, 1, 255], qos: .atLeastOnce, retain: true))
    }

    @Test func aDamagedFileIsDroppedAndCounted() throws {
        let folder = TempDir()
        do {
            var backlog = try Backlog(capacity: 4, folder: folder.url)
            try backlog.append(MQTTMessage(topic: "t", text: "kept"))
        }
        try Data([9, 9]).write(to: folder.url.appendingPathComponent("00000000000000000007.msg"))
        let restored = try Backlog(capacity: 4, folder: folder.url)
        #expect(restored.count == 1)
        #expect(restored.dropped == 1)
        #expect(try messageFiles(in: folder).count == 1)
    }

    /// An acknowledged message's file is kept as a spare and the next message written into it;
    /// a new process starts without the spares.
    @Test func acknowledgedFilesAreReusedAndSparesDiscardedOnLoad() throws {
        let folder = TempDir()
        do {
            var backlog = try Backlog(capacity: 10, folder: folder.url)
            try backlog.append(MQTTMessage(topic: "t", text: "first"))
            try backlog.remove(try #require(backlog.first(from: 0)).sequence)
            #expect(try messageFiles(in: folder).isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count == 1, "one spare")
            try backlog.append(MQTTMessage(topic: "t", text: "second"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count == 1, "the spare became the message")
        }
        let restored = try Backlog(capacity: 10, folder: folder.url)
        #expect(restored.first(from: 0)?.message.text == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count == 1)
    }
}
