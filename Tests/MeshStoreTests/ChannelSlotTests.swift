import Foundation
import GRDB
import MeshCodec
import Testing

@testable import MeshStore

/// The channel slots the packet log reads for every heard packet come from a cache
/// (ChannelSlotCache.swift) that every channel write through the writer renews.
@Suite struct ChannelSlotTests {
    @Test func theCachedSlotsFollowEveryWriteOfTheWriter() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        #expect(try t.reader.channelSlots(radio) == [])
        let slots = [ChannelInfo(index: 0, name: "Public", secret: .publicChannel), ChannelInfo(index: 1, name: "#mesh", secret: .hashtag("#mesh"))]
        try await t.writer.saveChannels(radio, slots)
        #expect(try t.reader.channelSlots(radio) == slots)

        // Served from the cache: a change made behind the writer's back is not read...
        try await t.store.database.writer.write { db in
            try db.execute(sql: "UPDATE channels SET name = 'Renamed' WHERE radioId = ? AND channelIndex = 0", arguments: [radio.rawValue])
        }
        #expect(try t.reader.channelSlots(radio) == slots)
        // ...while a write through the writer (set, remove, a sync from the radio) renews it.
        let ops = ChannelInfo(index: 1, name: "#ops", secret: .hashtag("#ops"))
        try await t.writer.saveChannels(radio, [ops])
        #expect(try t.reader.channelSlots(radio) == [ChannelInfo(index: 0, name: "Renamed", secret: .publicChannel), ops])
        try await t.writer.saveChannels(radio, [ChannelInfo(index: 1, name: "", secret: .empty)])
        #expect(try t.reader.channelSlots(radio).map(\.name) == ["Renamed", ""])

        try await t.writer.deleteRadio(radio)
        #expect(try t.reader.channelSlots(radio) == [])
    }

    @Test func eachRadioHasItsOwnSlots() async throws {
        let t = try TestStore()
        let first = try await t.writer.register(Fixture.radio()).id
        let second = try await t.writer.register(Fixture.radio(0x42)).id
        try await t.writer.saveChannels(first, [ChannelInfo(index: 0, name: "Public", secret: .publicChannel)])
        try await t.writer.saveChannels(second, [ChannelInfo(index: 0, name: "#ams", secret: .hashtag("#ams"))])
        #expect(try t.reader.channelSlots(first).map(\.name) == ["Public"])
        #expect(try t.reader.channelSlots(second).map(\.name) == ["#ams"])
        try await t.writer.saveChannels(second, [ChannelInfo(index: 0, name: "#sea", secret: .hashtag("#sea"))])
        #expect(try t.reader.channelSlots(first).map(\.name) == ["Public"])
        #expect(try t.reader.channelSlots(second).map(\.name) == ["#sea"])
    }
}
