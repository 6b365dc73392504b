import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// ChannelsService against MeshSim: slots written, read back, stored.
@Suite(.timeLimit(.minutes(1))) struct ChannelsServiceTests {
    private func connected() async throws -> (ClientHarness, ChannelsService) {
        let h = try ClientHarness()
        let context = try await h.client().connect()
        return (h, ChannelsService(context: context))
    }

    @Test func joiningAHashtagUsesTheFirstFreeSlotOnce() async throws {
        let (h, channels) = try await connected()
        let free = try #require(try await channels.list().first { $0.info.isEmpty })
        let joined = try await channels.join(hashtag: "test")
        #expect(joined.index == free.index && joined.name == "#test" && joined.kind == .hashtag)
        #expect(joined.info.secret.hex == "9cd8fcf22a47333b591d96a2b848b73f")   // Docs/protocol.md §7.6
        #expect(try await channels.join(hashtag: "#test").index == free.index, "joining again changes nothing")
        #expect(await h.radio.state.channels[Int(free.index)].secret == joined.info.secret)
        #expect(try await channels.resolve("test").index == free.index)
    }

    @Test func passphraseChannelsURIsAndRemoval() async throws {
        let (_, channels) = try await connected()
        let secret = ChannelSecret.passphrase("correct horse battery staple")
        let slot = try await channels.join(name: "Crew", secret: secret)
        #expect(slot.kind == .private)
        let link = try await channels.uri(slot.index)
        #expect(try ChannelURI(parsing: link.text) == ChannelURI(name: "Crew", secret: secret))
        try await channels.remove(slot.index)
        #expect(try await channels.list().first { $0.index == slot.index }?.info.isEmpty == true)
        await #expect(throws: ChannelsError.notFound("Crew")) { try await channels.resolve("Crew") }
    }

    @Test func fullSlotsAndLongNamesAreRefusedClearly() async throws {
        let (_, channels) = try await connected()
        await #expect(throws: ChannelsError.nameTooLong("#" + String(repeating: "x", count: 31))) {
            try await channels.join(hashtag: String(repeating: "x", count: 31))
        }
        let slots = try await channels.list().count
        for i in 0..<(try await channels.list().filter(\.info.isEmpty).count) { try await channels.join(hashtag: "fill\(i)") }
        await #expect(throws: ChannelsError.noFreeSlot(slots)) { try await channels.join(hashtag: "onetoomany") }
    }
}
