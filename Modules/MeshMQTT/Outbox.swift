/// What goes to Paho next and what still waits for the broker: the backlog (Backlog.swift) in
/// order, and the QoS 1 messages sent on the current connection but not yet acknowledged, at
/// most `window` of them. A lost connection sends again from the oldest unacknowledged one.
///
/// A QoS 0 message is done once Paho has queued it: the broker acknowledges nothing, and Paho
/// (1.3) loses the completion of a QoS 0 send that was only partly written when the socket
/// was full, so waiting for completions would stop the client for good once the window had
/// filled with lost ones.
struct Outbox {
    private(set) var backlog: Backlog
    let window: Int
    /// Counts connections; a completion from an earlier one is stale.
    private(set) var epoch = 0
    private(set) var inFlight: Set<UInt64> = []
    /// Messages handed over for good: QoS 1 ones acknowledged, QoS 0 ones queued by Paho.
    private(set) var delivered = 0
    /// The lowest sequence not yet handed over on the current connection.
    private var cursor: UInt64 = 0

    init(backlog: Backlog, window: Int) {
        self.backlog = backlog
        self.window = max(1, window)
    }

    mutating func append(_ message: MQTTMessage) throws(MQTTError) { try backlog.append(message) }

    /// The next message to hand to Paho, or nil when none waits or the QoS 1 window is full.
    func next() -> Backlog.Entry? {
        guard let entry = backlog.first(from: cursor) else { return nil }
        if entry.message.qos == .atLeastOnce, inFlight.count >= window { return nil }
        return entry
    }

    /// Paho queued `entry`: a QoS 0 message is done, a QoS 1 one waits for its acknowledgement.
    mutating func handedOver(_ entry: Backlog.Entry) throws(MQTTError) {
        cursor = entry.sequence + 1
        if entry.message.qos == .atLeastOnce {
            inFlight.insert(entry.sequence)
        } else {
            delivered += 1
            try backlog.remove(entry.sequence)
        }
    }

    /// Paho refused `entry` outright: it is dropped, so it does not hold up the ones behind it.
    mutating func refused(_ entry: Backlog.Entry) throws(MQTTError) {
        cursor = entry.sequence + 1
        try backlog.remove(entry.sequence)
    }

    /// The broker acknowledged a QoS 1 message.
    mutating func acknowledged(_ sequence: UInt64) throws(MQTTError) {
        inFlight.remove(sequence)
        delivered += 1
        try backlog.remove(sequence)
    }

    /// A QoS 1 send failed on connection `epoch`; true when it is sent again (from it on).
    mutating func failed(_ sequence: UInt64, epoch: Int) -> Bool {
        guard epoch == self.epoch, inFlight.remove(sequence) != nil else { return false }
        cursor = min(cursor, sequence)
        return true
    }

    /// A new connection: everything still kept goes out again, oldest first.
    mutating func connected() {
        epoch += 1
        inFlight = []
        cursor = backlog.oldestSequence
    }

    mutating func connectionLost() {
        epoch += 1
        inFlight = []
    }
}
