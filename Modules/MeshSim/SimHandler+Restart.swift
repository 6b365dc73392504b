import MeshCodec

/// REBOOT and FACTORY_RESET. The radio restarts: the link drops (`SimRadioState.restarted`
/// tells the link to close) and what it held in RAM is gone, while its flash stays and the
/// mesh goes on around it.
extension SimHandler {
    /// REBOOT ("reboot"): nothing is answered; the board restarts at once.
    static func reboot(_ s: inout SimRadioState, now: Duration) -> [RadioFrame] {
        restart(&s, now: now)
        return []
    }

    /// FACTORY_RESET ("reset"): the flash is formatted, so the radio comes back with a new
    /// identity, no contacts, only the Public channel and default settings. Over USB the OK
    /// gets out before the restart (over WiFi the firmware disables the link first).
    static func factoryReset(_ s: inout SimRadioState, now: Duration) -> [RadioFrame] {
        var fresh = SimRadioState(seed: s.rng.next(), limits: s.limits)
        // The world and the board's clock carry on.
        fresh.nodes = s.nodes
        fresh.scheduled = s.scheduled
        fresh.rng = s.rng
        fresh.airRNG = s.airRNG
        fresh.lossPerHop = s.lossPerHop
        fresh.problems = s.problems
        fresh.keepClock(of: s)
        s = fresh
        restart(&s, now: now)
        return [ok]
    }

    /// What a restart clears: the message queue, the ACKs and the request still awaited, the
    /// advert path cache, the packets seen, counters and uptime, a signing in progress, the
    /// app's declared version and a flood scope set for this session only.
    private static func restart(_ s: inout SimRadioState, now: Duration) {
        s.bootedAt = now
        s.offlineQueue = OfflineQueue(capacity: s.limits.offlineQueueSize)
        s.expectedAcks = []
        s.pending = nil
        s.advertPaths = []
        s.packetsSeen = []
        s.signBuffer = nil
        s.stats = SimStats()
        s.appTargetVersion = 0
        s.prefs.floodScopeOverride = nil
        s.restarted = true
    }
}
