import Foundation
import MeshCodec
import MeshStore

/// The radio's own telemetry and statistics: its Cayenne LPP telemetry, battery and storage,
/// STATS core/radio/packets, and periodic sampling of the statistics into the store through
/// the coalescer (`MeshStore.record`).
public actor TelemetryService {
    public nonisolated let context: ServiceContext
    private let now: @Sendable () -> Date
    private var sampler: Task<Void, Never>?

    public init(context: ServiceContext, now: @escaping @Sendable () -> Date = { Date() }) {
        self.context = context
        self.now = now
    }

    /// SEND_TELEMETRY_REQ without a key: the radio pushes its own TELEMETRY_RESPONSE at once.
    public func ownTelemetry() async throws -> [LPPRecord] {
        let session = context.session
        let ownPrefix = context.selfInfo.publicKey.prefix()
        let lpp = try await session.callAnsweredByPush(.sendTelemetryRequest(nil, reserved: [0, 0, 0])) { push in
            if case let .telemetryResponse(prefix, lpp) = push, prefix == ownPrefix { lpp } else { nil }
        }
        do {
            return try CayenneLPP.decode(lpp)
        } catch {
            throw SessionError.unexpected(command: "CMD_SEND_TELEMETRY_REQ", url: context.radioURL, got: "undecodable telemetry: \(error)")
        }
    }

    /// GET_BATT_AND_STORAGE.
    public func batteryAndStorage() async throws -> BatteryAndStorage {
        try await context.session.expect(.getBatteryAndStorage) { if case let .batteryAndStorage(v) = $0 { v } else { nil } }
    }

    /// GET_STATS of one type.
    public func stats(_ type: StatsType) async throws -> Stats {
        try await context.session.expect(.getStats(type)) { if case let .stats(s) = $0, s.type == type { s } else { nil } }
    }

    /// All three STATS frames and the battery.
    public func localStats() async throws -> LocalStats {
        guard case let .core(core) = try await stats(.core), case let .radio(radio) = try await stats(.radio),
              case let .packets(packets) = try await stats(.packets) else {
            // `stats(_:)` only returns the type asked for.
            throw SessionError.unexpected(command: "CMD_GET_STATS", url: context.radioURL, got: "another stats type")
        }
        return LocalStats(core: core, radio: radio, packets: packets, battery: try await batteryAndStorage())
    }

    /// Reads the statistics once and queues them for the store (written by the coalescer).
    @discardableResult
    public func sample() async throws -> LocalStats {
        let stats = try await localStats()
        await context.store.record(context.radio, stats: stats.sample(at: now()))
        return stats
    }

    /// Samples every `interval` until `stopSampling()`; a failed sample is reported as a
    /// problem and the next one is tried. Each sample also goes to `onSample` (the server's
    /// /metrics). Replaces a sampler already running.
    public func startSampling(every interval: Duration, onSample: @escaping @Sendable (LocalStats) async -> Void = { _ in }) {
        sampler?.cancel()
        sampler = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                if let stats = await self.sampleOnce() { await onSample(stats) }
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return   // stopped
                }
            }
        }
    }

    public func stopSampling() {
        sampler?.cancel()
        sampler = nil
    }

    public var isSampling: Bool { sampler != nil }

    private func sampleOnce() async -> LocalStats? {
        guard await context.session.state == .ready else { return nil }
        do {
            return try await sample()
        } catch {
            context.events.emit(.problem("sampling the radio's statistics failed: \(error)"))
            return nil
        }
    }
}
