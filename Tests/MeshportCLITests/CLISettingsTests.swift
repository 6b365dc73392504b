import Foundation
import MeshportTestSupport
import Testing

/// get/set through the executable: a value written is read back; one the radio keeps
/// otherwise is an error with exit status 6 that says what happened and what to do.
@Suite(.timeLimit(.minutes(1))) struct CLISettingsTests {
    /// A board that caps transmit power at 14 dBm while reporting 20 as its maximum.
    static let cappedBoard = #"{"radio": {"txPowerCap": 14}, "nodes": [{"id": "a", "name": "Alpha"}]}"#

    @Test(arguments: Link.allCases) func aClampedValueIsAMismatch(link: Link) async throws {
        let world = try await CLIWorld(link, scenario: Self.cappedBoard)
        let set = try await world.run(["set", "tx", "20"])
        #expect(set.status == 6, "\(set.status) \(set.out) \(set.err)")
        #expect(set.err.contains("tx: wrote 20 but the radio reports 14") && set.err.contains("meshport get tx"), "\(set.err)")

        let within = try await world.run(["set", "tx", "12"])
        #expect(within.status == 0 && within.out.contains("tx: 14 -> 12"), "\(within.out) \(within.err)")
        let get = try await world.run(["get", "tx"])
        #expect(get.out == "12\n", "\(get.out) \(get.err)")
    }

    @Test func badValuesAreUsageErrorsNamedBeforeSending() async throws {
        let world = try await CLIWorld(.tcp)
        let range = try await world.run(["set", "airtime_factor", "12"])
        #expect(range.status == 64 && range.err.contains("airtime_factor = 12 is out of range: 0-9"), "\(range.err)")
        let unknown = try await world.run(["set", "volume", "11"])
        #expect(unknown.status == 64 && unknown.err.contains("no setting named volume"), "\(unknown.err)")
    }

    /// client_repeat speaks of on and off, refused or not; the radio parameters written with
    /// it (SET_RADIO_PARAMS carries both) are not its business, and changing them keeps it on.
    @Test func clientRepeatIsOnOrOff() async throws {
        let world = try await CLIWorld(.tcp)
        let refused = try await world.run(["set", "client_repeat", "on"])
        #expect(refused.status == 6 && refused.err.contains("client_repeat = on refused by the radio"), "\(refused.err)")
        #expect(refused.err.contains("allowed_repeat_freq") && !refused.err.contains(/[0-9],[0-9]/), "\(refused.err)")
        #expect(try await world.run(["set", "freq", "869.495"]).status == 0)
        let on = try await world.run(["set", "client_repeat", "on"])
        #expect(on.status == 0 && on.out == "client_repeat: off -> on\n", "\(on.out) \(on.err)")
        #expect(try await world.run(["set", "sf", "9"]).status == 0)
        let still = try await world.run(["get", "client_repeat"])
        #expect(still.out == "on\n", "\(still.out) \(still.err)")
    }

    @Test func radioPresetsAreListedAndSetByName() async throws {
        let world = try await CLIWorld(.tcp)
        let list = try await world.run(["presets", "--json"], radio: false)
        let presets = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]], "\(list.err)")
        let eu = try #require(presets.first { $0["id"] as? String == "eu-uk-narrow" })
        #expect(eu["name"] as? String == "EU/UK (Narrow)" && eu["frequencyMHz"] as? Double == 869.618 && eu["codingRate"] as? Int == 8)
        let set = try await world.run(["set", "radio", "eu-uk-narrow"])
        #expect(set.status == 0 && set.out.hasSuffix("-> 869.618,62.5,8,8\n"), "\(set.out) \(set.err)")
    }

    @Test func clockSync() async throws {
        let world = try await CLIWorld(.tcp)
        let time = try await world.json(["time", "sync"])
        let t = try #require(time.value as? [String: Any], "\(time.err)")
        // Connecting already set the clock forward; it stays within a few seconds of ours.
        #expect(abs(t["driftSeconds"] as? Int ?? 99) <= 5, "\(t)")
    }
}
