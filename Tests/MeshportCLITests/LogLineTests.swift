import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Testing
@testable import MeshportCLI

/// The daemon commands' log lines as values: text with a time, text for journald (a syslog
/// priority instead of the time), and JSON, one event per line whatever the message holds.
@Suite struct LogLineTests {
    static let line = LogLine(time: Date(timeIntervalSince1970: 1_795_000_000.5), level: .warning, label: "meshport.serve",
                              message: "The link to the radio was lost; reconnecting.", metadata: ["radio": "1", "uplink": "mqtt://broker:1883 (AMS)"])

    @Test func textHasTheTimeTheLevelAndQuotedMetadata() {
        #expect(Self.line.text(journal: false)
            == #"2026-11-18T11:06:40.500Z warning meshport.serve: The link to the radio was lost; reconnecting. radio=1 uplink="mqtt://broker:1883 (AMS)""#)
    }

    @Test func underJournaldThePriorityReplacesTheTime() {
        #expect(Self.line.text(journal: true)
            == #"<4>meshport.serve: The link to the radio was lost; reconnecting. radio=1 uplink="mqtt://broker:1883 (AMS)""#)
        let priorities = [Logger.Level.trace, .debug, .info, .notice, .warning, .error, .critical].map(\.syslogPriority)
        #expect(priorities == [7, 7, 6, 5, 4, 3, 2])
    }

    @Test func aMessageOnSeveralLinesStaysOneLine() {
        var line = Self.line
        line.message = "first\nsecond \"quoted\"\ttab"
        line.metadata = [:]
        #expect(line.text(journal: true) == "<4>meshport.serve: first\\nsecond \"quoted\"\ttab")
        #expect(line.json == #"{"time":"2026-11-18T11:06:40.500Z","level":"warning","label":"meshport.serve","message":"first\nsecond \"quoted\"\ttab"}"#)
    }

    @Test func jsonPutsMetadataBesideTheFixedFields() throws {
        var line = Self.line
        line.metadata["level"] = "clash"
        line.metadata["nested"] = .dictionary(["list": .array(["a", .stringConvertible(2)])])
        #expect(line.json == #"{"time":"2026-11-18T11:06:40.500Z","level":"warning","label":"meshport.serve","#
            + #""message":"The link to the radio was lost; reconnecting.","metadata_level":"clash","nested":{"list":["a","2"]},"#
            + #""radio":"1","uplink":"mqtt://broker:1883 (AMS)"}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.json.utf8)) as? [String: Any])
        #expect(object["message"] as? String == Self.line.message)
    }

    /// journald's stream is recognised by the device and inode systemd puts in JOURNAL_STREAM,
    /// so a stderr redirected elsewhere since gets times again.
    @Test func journaldIsStderrsOwnStreamOnly() {
        var info = stat()
        #expect(fstat(STDERR_FILENO, &info) == 0)
        #expect(StderrLogHandler.stderrIsJournal(["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino)"]))
        #expect(!StderrLogHandler.stderrIsJournal(["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino + 1)"]))
        #expect(!StderrLogHandler.stderrIsJournal([:]))
    }
}
