import MeshMQTT
import Synchronization

/// What a group's anchor writes of the messages it receives (IngestSettings.anchor,
/// Docs/ingest.md, "The anchor"). Its plain subscriptions bring a copy of every message; such
/// a copy is written while it may be the only one anyone got: from the start of each
/// connection until the anchor's own probe comes back, published once the broker has granted
/// the group's shared subscriptions on that connection. Mosquitto sends a client its copies
/// in the order it routed them, so every plain copy after the probe's was routed while the
/// group was subscribed, and a member has it. Probes are never written, by any worker.
final class AnchorGate: Sendable {
    /// Probes go to `meshcore/meshport-anchor/NONCE/packets`: inside the community filters, so
    /// the group and the plain subscriptions both route them, and no gateway's topic.
    static let probePrefix = "meshcore/meshport-anchor/"

    static func isProbe(_ topic: String) -> Bool { topic.hasPrefix(probePrefix) }

    private struct State {
        var recovering = true
        var probe: String?
        var written = 0
        var tally = Tally()
    }

    /// What the gate decided over the worker's life, for its counts (IngestCounts).
    struct Tally: Sendable, Equatable {
        /// Plain copies written while the group's subscriptions may have been missing.
        var writtenAlone = 0
        /// Plain copies skipped because a member of the group had them.
        var skipped = 0
    }

    private let state = Mutex(State())

    /// Whether to write `message`; `ended` runs (once per connection) when the probe's copy
    /// ends the recovery, with the plain copies written during it.
    func admit(_ message: MQTTMessage, ended: (Int) -> Void) -> Bool {
        let group = IngestSettings.Subscription.group.rawValue, anchor = IngestSettings.Subscription.anchor.rawValue
        let ids = message.subscriptionIdentifiers
        if Self.isProbe(message.topic) {
            guard ids.contains(anchor) else { return false }
            let written: Int? = state.withLock { s in
                guard s.recovering, s.probe == message.topic else { return nil }
                s.recovering = false
                return s.written
            }
            if let written { ended(written) }
            return false
        }
        guard ids.contains(anchor), !ids.contains(group) else { return true }
        return state.withLock { s in
            if s.recovering {
                s.written += 1
                s.tally.writtenAlone += 1
                return true
            }
            s.tally.skipped += 1
            return false
        }
    }

    /// The connection is gone: until the next probe comes back, plain copies are written.
    func connectionLost() {
        state.withLock { s in
            s.recovering = true
            s.probe = nil
            s.written = 0
        }
    }

    /// The topic of this connection's probe (a fresh one each time: a late copy of an earlier
    /// probe ends nothing).
    func newProbe(nonce: String) -> String {
        let topic = "\(Self.probePrefix)\(nonce)/packets"
        state.withLock { $0.probe = topic }
        return topic
    }

    var tally: Tally { state.withLock { $0.tally } }
}
