/// What to say while heard packets are kept without the store's channels and contacts
/// (PacketLog): once when the store first fails, once when it reads again, and nothing for
/// the packets between, which on a busy mesh come hundreds a minute.
struct UnreadableStoreNotice: Sendable {
    /// Packets kept without the store since it last read.
    private(set) var kept = 0

    /// The sentence to say after keeping a packet, if any; `failure` is the store's error when
    /// the packet was kept without it, nil when the store read.
    mutating func after(_ failure: (any Error)?) -> String? {
        if let failure {
            kept += 1
            guard kept == 1 else { return nil }
            return "Heard packets are kept without their channel and sender: reading the radio's channels and contacts failed: \(failure). "
                + "This is said once; another line follows when the store reads again."
        }
        guard kept > 0 else { return nil }
        defer { kept = 0 }
        return "The store reads the radio's channels and contacts again: \(kept) heard packet\(kept == 1 ? " was" : "s were") kept without their channel and sender meanwhile."
    }
}
