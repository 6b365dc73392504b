import MeshCodec

/// A message being watched: the session's pushes reach `observe`, in order, from before
/// its first frame is sent until `RetryPolicy.echoWindow` after it settles.
struct Tracked {
    var matcher: EchoMatcher
    /// The ACK codes of its attempts, with each attempt's number.
    var codes: [AckCode: Int] = [:]
    /// SEND_CONFIRMED pushes seen before the SENT that names their code was handled.
    var early: [AckCode: UInt32] = [:]
    var confirmation: Confirmation?
    var waiter: Waiter?
    /// Settled as failed: a late ACK still delivers it.
    var failed = false
    var pump: Task<Void, Never>?
    var linger: Task<Void, Never>?
}

/// The first ACK of any attempt.
struct Confirmation: Hashable, Sendable {
    var code: AckCode
    var attempt: Int
    var roundTripMs: UInt32
}

struct Waiter {
    let token: Int
    let continuation: CheckedContinuation<Confirmation?, Never>
    let timer: Task<Void, Never>
}

extension Messenger {
    /// The radio's ACK table holds 8 sends; a few more unknown codes are kept, no more.
    static let earlyKept = 16

    /// Subscribes to the session's pushes for message `id`; call before its frame is sent.
    func startTracking(_ id: Int64, matcher: EchoMatcher) {
        let events = session.subscribe()
        var t = Tracked(matcher: matcher)
        t.pump = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.observe(event, for: id)
            }
        }
        tracked[id] = t
    }

    func observe(_ event: SessionEvent, for id: Int64) async {
        guard case let .push(push) = event, var t = tracked[id] else { return }
        switch push {
        case let .sendConfirmed(code, roundTripMs):
            guard t.confirmation == nil, case .direct = t.matcher else { return }
            guard let attempt = t.codes[code] else {
                if t.early.count < Self.earlyKept { t.early[code] = roundTripMs }
                tracked[id] = t
                return
            }
            let confirmation = Confirmation(code: code, attempt: attempt, roundTripMs: roundTripMs)
            confirm(&t, confirmation)
            tracked[id] = t
            if t.failed { await deliverLate(id, confirmation) }
        case let .logRxData(packet):
            if t.matcher.matches(packet.payload) { await recordHeardRepeat(id) }
        default:
            return
        }
    }

    /// Attempt `number`'s SENT named `code`: its ACK confirms the message from now on.
    func expect(_ code: AckCode, attempt number: Int, for id: Int64) {
        guard var t = tracked[id] else { return }
        t.codes[code] = number
        if t.confirmation == nil, let roundTripMs = t.early.removeValue(forKey: code) {
            confirm(&t, Confirmation(code: code, attempt: number, roundTripMs: roundTripMs))
        }
        tracked[id] = t
    }

    private func confirm(_ t: inout Tracked, _ confirmation: Confirmation) {
        t.confirmation = confirmation
        if let waiter = t.waiter {
            t.waiter = nil
            waiter.timer.cancel()
            waiter.continuation.resume(returning: confirmation)
        }
    }

    /// The first ACK of any attempt of message `id`, waiting at most `duration` for it; nil
    /// when none came in time or the calling task was cancelled.
    func confirmation(of id: Int64, within duration: Duration) async -> Confirmation? {
        guard let t = tracked[id] else { return nil }
        if let c = t.confirmation { return c }
        nextToken += 1
        let token = nextToken
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Confirmation?, Never>) in
                guard tracked[id] != nil, !Task.isCancelled else {
                    c.resume(returning: nil)
                    return
                }
                let timer = Task { [weak self] in
                    do { try await Task.sleep(for: duration) } catch { return }  // cancelled: the ACK came
                    await self?.expire(id, token: token)
                }
                tracked[id]?.waiter = Waiter(token: token, continuation: c, timer: timer)
            }
        } onCancel: {
            Task { [weak self] in await self?.expire(id, token: token) }
        }
    }

    private func expire(_ id: Int64, token: Int) {
        guard let waiter = tracked[id]?.waiter, waiter.token == token else { return }
        tracked[id]?.waiter = nil
        waiter.timer.cancel()
        waiter.continuation.resume(returning: nil)
    }

    /// The message is settled (delivered, failed, or a channel message sent): its echoes, and
    /// for a failed DM a late ACK, are still taken for the echo window, then watching stops.
    func settle(_ id: Int64, failed: Bool) {
        guard tracked[id] != nil, tracked[id]?.linger == nil else {
            tracked[id]?.failed = failed
            return
        }
        tracked[id]?.failed = failed
        let window = policy.scaledEchoWindow
        tracked[id]?.linger = Task { [weak self] in
            do { try await Task.sleep(for: window) } catch { return }  // cancelled: already untracked
            await self?.untrack(id)
        }
    }

    func untrack(_ id: Int64) {
        guard let t = tracked.removeValue(forKey: id) else { return }
        t.pump?.cancel()
        t.linger?.cancel()
        if let waiter = t.waiter {
            waiter.timer.cancel()
            waiter.continuation.resume(returning: nil)
        }
    }
}
