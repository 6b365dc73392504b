import Foundation
import MeshportTestSupport
import Testing

/// Contacts and channels changed through the executable, each change read back from the radio.
@Suite(.timeLimit(.minutes(1))) struct CLIEditTests {
    @Test func contactsAddExportImportResetAndRemove() async throws {
        let world = try await CLIWorld(.tcp)
        let key = String(repeating: "ab", count: 32)
        let add = try await world.json(["contacts", "add", key, "--name", "Newbie", "--type", "repeater"])
        let added = try #require(add.value as? [String: Any], "\(add.err)")
        #expect(added["name"] as? String == "Newbie" && added["type"] as? String == "repeater" && added["path"] as? String == "flood")

        // Pine's path is known; reset, it floods.
        let reset = try await world.json(["contacts", "reset-path", "Pine"])
        #expect((reset.value as? [String: Any])?["path"] as? String == "flood", "\(reset.err)")

        let star = try await world.json(["contacts", "favourite", "Pine"])
        #expect((star.value as? [String: Any])?["favourite"] as? Bool == true, "\(star.err)")
        let share = try await world.run(["contacts", "share", "Pine"])
        #expect(share.status == 0 && share.out.contains("shared: Pine"), "\(share.err)")

        let export = try await world.json(["contacts", "export", "Alder"])
        let card = try #require((export.value as? [String: Any])?["advert"] as? String, "\(export.err)")
        let link = (export.value as? [String: Any])?["link"] as? String ?? ""
        #expect(link.hasPrefix("meshcore://contact/add?name=Alder&public_key=") && link.hasSuffix("&type=1"), "\(link)")

        let remove = try await world.run(["contacts", "remove", "Alder"])
        #expect(remove.status == 0 && remove.out.contains("removed: Alder"), "\(remove.err)")
        var names = try await contactNames(world)
        #expect(!names.contains("Alder") && names.contains("Newbie"))

        // The exported card brings Alder back.
        let imported = try await world.run(["contacts", "import", card])
        #expect(imported.status == 0, "\(imported.err)")
        names = try await contactNames(world)
        #expect(names.contains("Alder"))

        // With manual add on the radio acknowledges the card and adds nothing: not applied.
        #expect(try await world.run(["set", "manual_add_contacts", "on"]).status == 0)
        #expect(try await world.run(["contacts", "remove", "Alder"]).status == 0)
        let ignored = try await world.run(["contacts", "import", card])
        #expect(ignored.status == 6 && ignored.err.contains("added no contact") && ignored.err.contains("meshport contacts add "),
                "\(ignored.status) \(ignored.out) \(ignored.err)")
    }

    @Test func channelsJoinSetAndRemove() async throws {
        let world = try await CLIWorld(.tcp)
        let join = try await world.json(["channels", "join", "#meshport"])
        let joined = try #require(join.value as? [String: Any], "\(join.err)")
        #expect(joined["index"] as? Int == 1 && joined["kind"] as? String == "hashtag")
        let set = try await world.run(["channels", "set", "2", "Crew", "--passphrase", "open sesame"])
        #expect(set.status == 0 && set.out.contains("set: slot 2 Crew"), "\(set.err)")
        let list = try await world.json(["channels", "list"])
        let names = (list.value as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["Public", "#meshport", "Crew"], "\(list.err)")
        let remove = try await world.run(["channels", "remove", "#meshport"])
        #expect(remove.status == 0, "\(remove.err)")
        let after = try await world.json(["channels", "list", "--offline"])
        #expect((after.value as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Public", "Crew"])
    }

    @Test func listenPrintsDrainedMessagesAsJSONLines() async throws {
        let world = try await CLIWorld(.tcp)
        // The default mesh has 7 messages waiting: with --messages-only, they are the first events.
        let listen = try await world.run(["listen", "--json", "--messages-only", "--count", "7"])
        let lines = listen.out.split(separator: "\n")
        #expect(listen.status == 0 && lines.count == 7, "\(listen.out) \(listen.err)")
        let events = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.allSatisfy { $0?["type"] as? String == "message" })
        let texts = events.compactMap { ($0?["message"] as? [String: Any])?["text"] as? String }
        #expect(texts.contains("are you on tonight?") && texts.contains("morning all"), "\(texts)")
    }

    private func contactNames(_ world: CLIWorld) async throws -> Set<String> {
        let list = try await world.json(["contacts", "list"])
        return Set((list.value as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
    }
}
