import Foundation
import MeshIngest
import MeshMQTT
import Testing

/// `meshport ingest`'s options (Modules/MeshIngest/IngestOptions.swift).
@Suite(.timeLimit(.minutes(1))) struct IngestOptionsTests {
    let environment = ["HOME": "/home/op", "XDG_STATE_HOME": "/var/lib/op-state"]

    @Test func defaultsAreUsable() throws {
        let options = try IngestOptions(mqtt: ["mqtt://ingest:pw@broker.lan"], postgres: "postgres://region@db.lan/region",
                                        hostName: "box.lan", environment: environment)
        #expect(options.brokers.map(\.host) == ["broker.lan"] && options.group == "meshport-ingest")
        #expect(options.spoolFolder.path == "/var/lib/op-state/meshport/ingest")
        #expect(options.clientID.hasPrefix("meshport-ingest-box-lan-") && options.clientID.count == "meshport-ingest-box-lan-".count + 8)
        #expect(options.batchSize == 500 && options.batchInterval == .milliseconds(200) && options.spoolBound == 10_000)
        #expect(options.channels.channels.map(\.name) == ["Public"])
        let settings = options.settings
        #expect(settings.filters == ["$share/meshport-ingest/meshcore/+/+/packets", "$share/meshport-ingest/meshcore/+/+/status"])
        let home = try IngestOptions(mqtt: ["mqtt://broker"], postgres: "postgresql://db/region", environment: ["HOME": "/home/op"])
        #expect(home.spoolFolder.path == "/home/op/.local/state/meshport/ingest")
    }

    @Test func theClientIDStaysTheSameForAFolderAndDiffersBetweenFolders() throws {
        func id(_ state: String) throws -> String {
            try IngestOptions(mqtt: ["mqtt://broker"], postgres: "postgres://db/r", state: state, hostName: "box", environment: environment).clientID
        }
        #expect(try id("/srv/ingest-a") == (try id("/srv/ingest-a")))
        #expect(try id("/srv/ingest-a") != (try id("/srv/ingest-b")))
        let given = try IngestOptions(mqtt: ["mqtt://broker"], postgres: "postgres://db/r", clientID: "worker-1", environment: environment)
        #expect(given.clientID == "worker-1")
    }

    @Test func everythingGivenIsTaken() throws {
        let options = try IngestOptions(mqtt: ["mqtt://a", "mqtts://b:8883"], postgres: "postgres://db/r", group: "region-ams",
                                        state: "/srv/w1", channels: ["#hiking"], batchSize: 1000, batchMilliseconds: 50,
                                        spoolLimit: 5000, sessionExpirySeconds: 3600, environment: environment)
        #expect(options.brokers.count == 2 && options.group == "region-ams" && options.spoolFolder.path == "/srv/w1")
        #expect(options.batchSize == 1000 && options.batchInterval == .milliseconds(50) && options.spoolBound == 5000)
        #expect(options.sessionExpirySeconds == 3600 && options.channels.channels.map(\.name) == ["Public", "#hiking"])
    }

    /// `--single-worker` subscribes to the plain topics (Mosquitto restores those after its own
    /// restart); otherwise the group's shared subscriptions.
    @Test func aSingleWorkerHasPlainSubscriptions() throws {
        let env = ["XDG_STATE_HOME": "/tmp/state"]
        let alone = try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", singleWorker: true, environment: env)
        #expect(alone.group == nil && alone.settings.filters == ["meshcore/+/+/packets", "meshcore/+/+/status"])
        let grouped = try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", environment: env)
        #expect(grouped.settings.filters == ["$share/meshport-ingest/meshcore/+/+/packets", "$share/meshport-ingest/meshcore/+/+/status"])
    }

    @Test func badValuesNameTheirOption() {
        func error(_ make: () throws -> IngestOptions) -> String {
            do {
                _ = try make()
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let env = environment
        #expect(error { try IngestOptions(mqtt: [], postgres: "postgres://db/r", environment: env) } == "--mqtt is required.")
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: nil, environment: env) } == "--postgres is required.")
        #expect(error { try IngestOptions(mqtt: ["http://b"], postgres: "postgres://db/r", environment: env) }.hasPrefix("--mqtt http://b is not usable"))
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "mysql://u:secret@db/r", environment: env) }
            == "--postgres mysql://u:***@db/r is not usable: give a postgres://USER:PASSWORD@HOST[:PORT]/DATABASE URL.")
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", group: "a/b", environment: env) }
            .hasPrefix("--workers-group a/b is not usable"))
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", group: "g", singleWorker: true, environment: env) }
            .contains("give one or the other"))
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", batchSize: 0, environment: env) }
            .hasPrefix("--batch-size 0 is not usable"))
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", batchMilliseconds: 0, environment: env) }
            .hasPrefix("--batch-ms 0 is not usable"))
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", spoolLimit: 10, environment: env) }
            .hasPrefix("--spool-limit 10 is not usable"))
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", sessionExpirySeconds: 5, environment: env) }
            .hasPrefix("--session-expiry 5 is not usable"))
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", retentionDays: 0, environment: env) }
            .hasPrefix("--retention-days 0 is not usable"))
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", retentionDays: 30, environment: env) } == "accepted")
        #expect(error { try IngestOptions(mqtt: ["mqtt://b"], postgres: "postgres://db/r", channels: ["Team"], environment: env) }
            .hasPrefix("--channel Team is not usable"))
    }
}
