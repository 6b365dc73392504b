import MeshCodec
import Synchronization

/// Each radio's channel slots (index, name, secret) as last read. The packet log needs them
/// for every heard packet (PacketClassifier.swift), and reading them from SQLite each time cost
/// a fifth of the uplink's CPU. Only the writer changes slots (`saveChannels`, `deleteRadio`),
/// and it forgets the radio's entry after each such commit. A read that a change overtook
/// (started before the change was forgotten) returns what it read but does not fill the cache.
final class ChannelSlotCache: Sendable {
    private struct State {
        var slots: [RadioID: [ChannelInfo]] = [:]
        /// Moves on with every change, so a read can tell whether one overtook it.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The cached slots of `radio`, else what `read` returns (then cached).
    func slots(_ radio: RadioID, read: () throws(StoreError) -> [ChannelInfo]) throws(StoreError) -> [ChannelInfo] {
        let (cached, generation) = state.withLock { ($0.slots[radio], $0.generation) }
        if let cached { return cached }
        let slots = try read()
        state.withLock { if $0.generation == generation { $0.slots[radio] = slots } }
        return slots
    }

    /// The radio's slots changed (or the radio is gone): the next read goes to the database.
    func forget(_ radio: RadioID) {
        state.withLock {
            $0.slots[radio] = nil
            $0.generation += 1
        }
    }
}
