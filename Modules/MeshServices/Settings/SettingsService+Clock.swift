import MeshCodec

extension SettingsService {
    /// The largest drift left alone unless forced (as the session's initialization does).
    public static let clockTolerance: UInt32 = 60

    /// GET_DEVICE_TIME, then SET_DEVICE_TIME when the radio is more than 60 s behind. The
    /// radio's clock only moves forward, so a radio ahead is left alone; `force` sets it even
    /// for a small drift, and asks the radio to go back (which it refuses with a typed error).
    @discardableResult
    public func syncTime(force: Bool = false) async throws -> ClockSync {
        let radio = try await readClock()
        let local = localClock()
        let behind = local > radio && local - radio > Self.clockTolerance
        guard behind || (force && local != radio) else {
            return ClockSync(radioBefore: radio, local: local, wasSet: false, radioAfter: radio)
        }
        do {
            try await session.expectOK(.setDeviceTime(local))
        } catch SessionError.refused(_, _, .illegalArgument) where local < radio {
            throw SettingsError.clockCannotGoBack(radio: radio, wanted: local)
        }
        let after = try await readClock()
        // Read back a moment later: the radio's clock has moved on by a second or two at most.
        guard after >= local, after - local <= 5 else {
            throw SettingsError.mismatch(setting: "time", wrote: "\(local)", readBack: "\(after)")
        }
        return ClockSync(radioBefore: radio, local: local, wasSet: true, radioAfter: after)
    }

    func readClock() async throws -> UInt32 {
        try await session.expect(.getDeviceTime) { if case let .currentTime(v) = $0 { v } else { nil } }
    }
}
