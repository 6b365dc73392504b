import Foundation
import MeshportTestSupport
import Testing

/// First sync through the real executable: the sim's contacts reach the store under the
/// test's own XDG data folder, over TCP and over the serial driver on a pty.
@Suite(.timeLimit(.minutes(1))) struct CLISyncTests {
    @Test(arguments: Link.allCases) func firstSyncStoresTheContacts(link: Link) async throws {
        let world = try await CLIWorld(link)
        let info = try await world.json(["info"])
        let radio = try #require(info.value as? [String: Any], "\(info.err)")
        // The default mesh: 20 contacts and 7 messages waiting before boot; newcomers' adverts
        // and chatter add more later (from 15 s on), which a slow run may already see.
        #expect((radio["contacts"] as? Int ?? 0) >= 20 && (radio["messages"] as? Int ?? 0) >= 7, "\(radio)")
        #expect((radio["name"] as? String)?.hasPrefix("MeshSim ") == true)
        #expect(FileManager.default.fileExists(atPath: world.database), "the store is under XDG_DATA_HOME")

        let list = try await world.json(["contacts", "list"])
        let contacts = try #require(list.value as? [[String: Any]], "\(list.err)")
        let names = Set(contacts.compactMap { $0["name"] as? String })
        #expect(contacts.count >= 20 && names.isSuperset(of: ["Repeater North", "Repeater South", "Town Square", "Weather Station"]), "\(names)")

        // Offline: the same list from the database alone.
        let offline = try await world.json(["contacts", "list", "--offline"])
        #expect((offline.value as? [[String: Any]])?.count == contacts.count, "\(offline.err)")
    }

    /// On a terminal the sync is a bar rewritten in place (carriage returns); in a pipe, lines.
    @Test func progressIsABarOnATerminalAndLinesOtherwise() async throws {
        let world = try await CLIWorld(.tcp)
        let tty = try PtyProcess(["info", "--radio", world.radio], environment: world.environment)
        #expect(await tty.waitForExit() == 0, "\(tty.text)")
        #expect(tty.text.contains("\r\u{1B}[Ksync: contacts ") && tty.text.contains(" [####################]") && tty.text.contains("synced: "), "\(tty.text)")
        let piped = try await world.run(["info"])
        let lines = piped.err.split(separator: "\n")
        #expect(!piped.err.contains("\r") && lines.contains { $0.hasPrefix("sync: contacts ") } && lines.contains { $0.hasPrefix("synced: ") }, "\(piped.err)")
    }

    @Test func aSavedDefaultRadioIsUsed() async throws {
        let world = try await CLIWorld(.tcp)
        let use = try await world.run(["use", world.radio], radio: false)
        #expect(use.status == 0, "\(use.err)")
        #expect(FileManager.default.fileExists(atPath: world.dir.path("config") + "/meshport/config.json"))
        let channels = try await world.run(["channels", "list"], radio: false)
        #expect(channels.status == 0 && channels.out.contains("Public"), "\(channels.out) \(channels.err)")
    }

    @Test func noRadioIsAUsageErrorThatSaysWhatToDo() async throws {
        let world = try await CLIWorld(.tcp)
        let run = try await world.run(["info"], radio: false)
        #expect(run.status == 64 && run.err.contains("meshport use URL"), "\(run.status) \(run.err)")
    }

    /// A serial device that never answers (a pty nobody serves): exit status 3, and the
    /// message names the command and the link and asks about the firmware.
    @Test func aSilentSerialDeviceIsNoAnswer() async throws {
        let silent = try SilentPty()
        let dir = TempDir()
        let run = try await runMeshport(["info", "--radio", "serial://" + silent.path, "--timeout", "0.5"],
                                        environment: ["XDG_CONFIG_HOME": dir.path("c"), "XDG_DATA_HOME": dir.path("d"), "MESHPORT_DB": ""])
        #expect(run.status == 3, "\(run.status) \(run.err)")
        #expect(run.err.contains("no answer to CMD_APP_START within 0.5 s on serial://\(silent.path)")
            && run.err.contains(": is the radio running USB companion firmware"), "\(run.err)")
    }

    @Test func nothingListeningIsALinkError() async throws {
        let dir = TempDir()
        let run = try await runMeshport(["info", "--radio", "tcp://127.0.0.1:1"],
                                        environment: ["XDG_CONFIG_HOME": dir.path("c"), "XDG_DATA_HOME": dir.path("d"), "MESHPORT_DB": ""])
        #expect(run.status == 5 && run.err.contains("tcp://127.0.0.1:1"), "\(run.status) \(run.err)")
    }
}
