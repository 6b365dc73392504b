import Foundation
import MeshportTestSupport
import Testing

/// Repeaters through the executable: login with the default mesh's admin password, then
/// status and telemetry in later runs (the sim keeps the login, as a repeater does).
@Suite(.timeLimit(.minutes(1))) struct CLIRemoteTests {
    @Test(arguments: Link.allCases) func loginThenStatusAndTelemetry(link: Link) async throws {
        let world = try await CLIWorld(link)
        let login = try await world.json(["login", "Repeater North", "--password", "password"])
        let answer = try #require(login.value as? [String: Any], "\(login.status) \(login.err)")
        #expect(answer["admin"] as? Bool == true && answer["node"] as? String == "Repeater North")

        let status = try await world.json(["status", "Repeater North"])
        let s = try #require(status.value as? [String: Any], "\(status.status) \(status.err)")
        #expect(s["batteryMillivolts"] as? Int == 3950 && (s["uptimeSeconds"] as? Int ?? 0) > 0, "\(s)")

        let telemetry = try await world.json(["telemetry", "Repeater North"])
        let t = try #require(telemetry.value as? [String: Any], "\(telemetry.status) \(telemetry.err)")
        let readings = try #require(t["readings"] as? [[String: Any]])
        #expect(readings.contains { $0["type"] as? String == "voltage" }, "\(readings)")

        let logout = try await world.run(["logout", "Repeater North"])
        #expect(logout.status == 0 && logout.out.contains("logged out of Repeater North"), "\(logout.err)")
    }

    @Test func rememberedPasswordsAreKeptPrivate() async throws {
        let world = try await CLIWorld(.tcp)
        let first = try await world.run(["login", "Repeater North", "--password", "password", "--remember"])
        #expect(first.status == 0, "\(first.err)")
        let file = world.dir.path("config") + "/meshport/passwords.json"
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = try await world.run(["login", "Repeater North"])
        #expect(again.status == 0 && again.out.contains("as admin"), "\(again.err)")
    }

    @Test func theRadiosOwnTelemetryAndStats() async throws {
        let world = try await CLIWorld(.tcp)
        let own = try await world.json(["telemetry"])
        #expect(((own.value as? [String: Any])?["readings"] as? [Any])?.isEmpty == false, "\(own.err)")
        let stats = try await world.json(["stats"])
        #expect((stats.value as? [String: Any])?["batteryMillivolts"] as? Int == 4100, "\(stats.err)")
    }
}
