import Foundation
import MeshportTestSupport
import Testing
@testable import MeshportCLI

/// What a command's connection keeps open while the command runs: `meshport uplink` runs for
/// months on a busy air, and an event subscription nobody reads keeps every event it is given.
@Suite(.timeLimit(.minutes(2))) struct RadioConnectionTests {
    @Test func aCommandThatDoesNotWatchEventsHoldsNoSubscription() async throws {
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0"])
        let folder = TempDir()
        let options = try RadioOptions.parse(["--radio", sim.address, "--db", folder.path("radio.db")])
        let open = try await RadioConnection.with(options, showProgress: false) { radio in
            // The sync display's watcher ends once the session is ready; give it the moment.
            for _ in 0..<100 where radio.client.events.subscriberCount > 0 { try await Task.sleep(for: .milliseconds(20)) }
            return radio.client.events.subscriberCount
        }
        #expect(open == 0)
        withExtendedLifetime(sim) {}
    }

    @Test func watchingGetsTheEventsFromBeforeTheConnection() async throws {
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0"])
        let folder = TempDir()
        let options = try RadioOptions.parse(["--radio", sim.address, "--db", folder.path("radio.db")])
        let sawReady = try await RadioConnection.watching(options) { radio, events in
            for await event in events {
                if case .connection(.ready) = event { return true }
            }
            return false
        }
        #expect(sawReady)
        withExtendedLifetime(sim) {}
    }
}
