import MeshCodec

/// Preferences and the commands that only change or report them (Docs/protocol.md §3).
extension SimHandler {
    static func settings(_ s: inout SimRadioState, _ command: Command) -> [RadioFrame]? {
        switch command {
        case let .setDevicePin(pin):
            // 0 (no PIN: the board's default) or six digits.
            guard pin == 0 || (100_000...999_999).contains(pin) else { return [error(.illegalArgument)] }
            s.blePin = pin
            return [ok]
        case let .setOtherParams(p):
            s.prefs.manualAddContacts = p.manualAddContacts
            if let modes = p.telemetryModes { s.prefs.telemetryModes = modes }
            if let policy = p.advertLocationPolicy { s.prefs.advertLocationPolicy = policy }
            if let acks = p.multiAcks { s.prefs.multiAcks = acks }
            return [ok]
        case let .setAutoAddConfig(c):
            // Max hops is clamped to 64; absent, it keeps its value.
            s.prefs.autoAdd = AutoAddConfig(bitmask: c.bitmask, maxHops: c.maxHops.map { min($0, 64) } ?? s.prefs.autoAdd.maxHops)
            return [ok]
        case .getAutoAddConfig:
            return [.response(.autoAddConfig(AutoAddConfig(bitmask: s.prefs.autoAdd.bitmask, maxHops: s.prefs.autoAdd.maxHops ?? 0)))]
        case .getAllowedRepeatFreq:
            return [.response(.allowedRepeatFreq(allowedRepeatFrequencies))]
        case let .setPathHashMode(mode):
            guard mode < 3 else { return [error(.illegalArgument)] }
            s.pathHashMode = mode
            return [ok]
        case let .setTuningParams(rx, af):
            // The firmware keeps floats clamped to 0-20 and 0-9.
            s.prefs.rxDelayBase = min(rx, 20_000)
            s.prefs.airtimeFactor = min(af, 9000)
            return [ok]
        case .getTuningParams:
            return [.response(.tuningParams(rxDelayBase: s.prefs.rxDelayBase, airtimeFactor: s.prefs.airtimeFactor))]
        case .getCustomVars:
            // The simulated board has no sensors, so no settings.
            return [.response(.customVars([]))]
        case .setCustomVar:
            return [error(.illegalArgument)]
        case let .setFloodScopeKey(o):
            s.prefs.floodScopeOverride = o
            return [ok]
        case let .setDefaultFloodScope(scope):
            if let scope, scope.name.isEmpty || scope.name.utf8.count >= 31 { return [error(.illegalArgument)] }
            s.prefs.defaultFloodScope = scope
            return [ok]
        case .getDefaultFloodScope:
            return [.response(.defaultFloodScope(s.prefs.defaultFloodScope))]
        default:
            return nil
        }
    }
}
