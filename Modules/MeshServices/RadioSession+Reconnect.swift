import Foundation

extension RadioSession {
    /// The link was lost while ready: reopen it with backoff and initialize again, until it
    /// works, the policy gives up, or `close()` is called.
    func startReconnecting() {
        set(.reconnecting)
        reconnector = Task { [weak self] in await self?.reconnect() }
    }

    private func reconnect() async {
        var attempt = 0
        while attempt < reconnectPolicy.attempts {
            attempt += 1
            let delay = reconnectPolicy.delay(before: attempt)
            report(.reconnecting(attempt: attempt, delay: delay))
            do {
                try await Task.sleep(for: delay)
            } catch {
                return   // cancelled by close()
            }
            guard !closing else { return }
            do {
                try await openLink()
                _ = try await initialize(setup ?? SessionSetup())
                guard !closing else { return }
                try requireLink()
                set(.ready)
                logger.notice("Reconnected to the radio (attempt \(attempt)).")
                report(.reconnected(attempt: attempt))
                return
            } catch {
                logger.info("Reconnect attempt \(attempt) of \(reconnectPolicy.attempts) failed.")
                report(.reconnectFailed(attempt: attempt, reason: "\(error)"))
                if let transport {
                    self.transport = nil
                    await transport.close()
                }
            }
        }
        if !closing {
            logger.warning("Gave up reconnecting to the radio after \(attempt) attempts.")
            set(.disconnected)
        }
    }
}
