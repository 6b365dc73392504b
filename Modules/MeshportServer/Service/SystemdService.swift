import Logging
import ServiceLifecycle

/// Tells systemd how serve is doing (`Type=notify`): `READY=1` with a status line once
/// `ServeReadiness` says so, each later status change, `WATCHDOG=1` every half of
/// `WATCHDOG_USEC` while `alive` answers, and `STOPPING=1` when shutdown begins.
struct SystemdService: Service {
    let notifier: SystemdNotifier
    let readiness: ServeReadiness
    /// Returns true once the server's own loops have each run a no-op (false: they are going
    /// away); a hung server never returns, so no keep-alive goes out and systemd restarts it.
    let alive: @Sendable () async -> Bool
    let logger: Logger

    func run() async {
        await withGracefulShutdownHandler {
            await cancelWhenGracefulShutdown {
                await withDiscardingTaskGroup { group in
                    group.addTask { await reportStatus() }
                    if let interval = notifier.watchdogInterval {
                        group.addTask { await keepAlive(every: interval / 2) }
                    }
                }
            }
        } onGracefulShutdown: {
            send(["STOPPING=1", "STATUS=Stopping."])
        }
    }

    private func reportStatus() async {
        var ready = false
        for await status in readiness.changes {
            send((ready ? [] : ["READY=1"]) + ["STATUS=\(status)"])
            if !ready { logger.notice("Ready: \(status)") }
            ready = true
        }
    }

    private func keepAlive(every period: Duration) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: period)
            } catch {
                return
            }
            guard await alive() else { return }
            send(["WATCHDOG=1"])
        }
    }

    private func send(_ fields: [String]) {
        do {
            try notifier.send(fields)
        } catch {
            logger.warning("\(error.description)")
        }
    }
}
