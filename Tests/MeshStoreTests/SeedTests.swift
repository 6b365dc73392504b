import Foundation
import MeshCodec
import Testing

@testable import MeshStore

@Suite struct SeedTests {
    @Test("seeds nodes, samples and messages; skips when enough nodes are there; --reset seeds again")
    func seedSkipReset() async throws {
        let t = try TestStore()
        let plan = SeedPlan(nodes: 120, telemetryPerNode: 3, statsPerNode: 2, positionsPerNode: 4, messages: 300)
        let progress = LogBox()
        let first = try await Seeder.run(t.store, plan: plan) { progress.note($0) }
        #expect(!first.skipped && first.nodes == 120 && first.nodesBefore == 0)
        #expect(first.rowsWritten == 120 + 120 * (3 + 2 + 4) + 300)
        #expect(progress.lastProgress == StoreProgress(phase: "messages", done: 300, total: 300))
        let radio = first.radio
        #expect(try t.reader.rowCounts(radio) == ["contacts": 120, "channels": 8, "messages": 300, "positions": 480,
                                                   "telemetry_samples": 360, "stats_samples": 240, "remote_sessions": 0, "room_messages": 0, "heard_packets": 0])
        #expect(try t.reader.unresolvedMessages(radio).isEmpty)

        let second = try await Seeder.run(t.store, plan: plan)
        #expect(second.skipped && second.nodesBefore == 120 && second.rowsWritten == 0)
        // Asking for more nodes than are there seeds (the same synthetic nodes are updated, not doubled).
        let more = try await Seeder.run(t.store, plan: SeedPlan(nodes: 150, positionsPerNode: 1))
        #expect(!more.skipped && more.nodes == 150)

        var reset = plan
        reset.reset = true
        let third = try await Seeder.run(t.store, plan: reset)
        #expect(!third.skipped && third.nodesBefore == 150 && third.nodes == 120)
        #expect(try t.reader.rowCounts(radio)["positions"] == 480)
        await #expect(throws: StoreError.self) { try await Seeder.run(t.store, plan: SeedPlan(nodes: -1)) }
    }
}
