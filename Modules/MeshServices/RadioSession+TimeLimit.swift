extension RadioSession {
    /// The session's one timer task and the instant it sleeps until. Commands follow each other
    /// with deadlines mostly later than the last, so the task wakes at the deadline it slept
    /// for, finds the command in flight then, and sleeps on to that one's deadline; a task and
    /// its cancellation per command cost two thread wake-ups each.
    struct Watchdog {
        let task: Task<Void, Never>
        let generation: Int
        var wakes: ContinuousClock.Instant
    }

    /// Makes sure the watchdog wakes by `deadline`: a sleeping one that wakes sooner looks at
    /// the command in flight then; else a new one replaces it.
    func watch(until deadline: ContinuousClock.Instant) {
        if let watchdog, watchdog.wakes <= deadline { return }
        watchdog?.task.cancel()
        let generation = (watchdog?.generation ?? 0) + 1
        let task = Task { [weak self] in
            var next = deadline
            while true {
                do { try await Task.sleep(until: next, clock: .continuous) } catch { return }
                guard let later = await self?.watchdogWoke(generation) else { return }
                next = later
            }
        }
        watchdog = Watchdog(task: task, generation: generation, wakes: deadline)
    }

    /// Fails the command in flight when its time is up. Returns the instant to wake again, or
    /// nil when this watchdog ends (nothing in flight, or it was replaced).
    private func watchdogWoke(_ generation: Int) -> ContinuousClock.Instant? {
        guard var watchdog, watchdog.generation == generation else { return nil }
        if let p = pending {
            if p.deadline > .now {
                watchdog.wakes = p.deadline
                self.watchdog = watchdog
                return p.deadline
            }
            finish(p.id, throwing: SessionError.noAnswer(command: p.command, url: radioURL, seconds: p.limit.seconds))
        }
        self.watchdog = nil
        return nil
    }

    /// No command is in flight any more for good (the session closed).
    func stopWatchdog() {
        watchdog?.task.cancel()
        watchdog = nil
    }
}
