import Logging
import ServiceLifecycle
import Synchronization

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
    /// Set while systemd is not reading: one warning per such stretch, not one per keep-alive.
    private let dropping = Dropping()

    init(notifier: SystemdNotifier, readiness: ServeReadiness, alive: @escaping @Sendable () async -> Bool, logger: Logger) {
        self.notifier = notifier
        self.readiness = readiness
        self.alive = alive
        self.logger = logger
    }

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
            if dropping.flag.exchange(false, ordering: .relaxed) { logger.notice("systemd reads its notification socket again.") }
        } catch .notReading(let address) {
            if !dropping.flag.exchange(true, ordering: .relaxed) { logger.warning("\(SystemdNotifyError.notReading(address).description)") }
        } catch {
            logger.warning("\(error.description)")
        }
    }
}

private final class Dropping: Sendable {
    let flag = Atomic(false)
}
