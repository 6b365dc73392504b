import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// TelemetryService against MeshSim: the radio's own telemetry, battery and stats, and
/// sampling into the store through the coalescer.
@Suite(.timeLimit(.minutes(1))) struct TelemetryServiceTests {
    @Test func ownTelemetryIsThePushedLPP() async throws {
        try await ServiceHarness.with { h in
            let telemetry = TelemetryService(context: h.context)
            let records = try await telemetry.ownTelemetry()
            let millivolts = await h.radio.state.batteryMillivolts
            #expect(records.first { $0.type == .voltage }?.values == [Double(millivolts) / 1000])
            // The session goes on with the next command.
            #expect(try await telemetry.batteryAndStorage().millivolts == millivolts)
        }
    }

    @Test func batteryAndStatsOfEachType() async throws {
        try await ServiceHarness.with { h in
            let telemetry = TelemetryService(context: h.context)
            let battery = try await telemetry.batteryAndStorage()
            #expect(battery.storageTotalKiB == 484 && (battery.storageUsedKiB ?? 0) > 0)
            for type in StatsType.allCases { #expect(try await telemetry.stats(type).type == type) }
            let stats = try await telemetry.localStats()
            #expect(stats.radio.noiseFloor == -118 && stats.packets.receiveErrors != nil)
            let row = stats.sample(at: Date(timeIntervalSince1970: 1))
            #expect(row.node == nil && row.batteryMillivolts == Int(stats.core.batteryMillivolts) && row.noiseFloor == -118
                    && row.packetsSent == Int(stats.packets.sent))
        }
    }

    @Test func samplingWritesRowsAfterAFlush() async throws {
        try await ServiceHarness.with { h in
            let telemetry = TelemetryService(context: h.context)
            await telemetry.startSampling(every: .milliseconds(10))
            #expect(await telemetry.isSampling)
            for _ in 0..<500 where await h.store.coalescer.pendingCount < 3 {
                try await Task.sleep(for: .milliseconds(10))
            }
            await telemetry.stopSampling()
            #expect(await telemetry.isSampling == false)
            try await h.store.coalescer.flush(.explicit)
            let rows = try h.store.reader.stats(h.context.radio, node: nil)
            #expect(rows.count >= 3 && rows.allSatisfy { $0.noiseFloor == -118 && $0.batteryMillivolts != nil && $0.packetsSent != nil })
        }
    }
}
