import Foundation

/// One thread of its own on which peers reach their radio: a task preferring it runs there,
/// and so does a default actor such as `SimRadio` while serving it (SE-0417). A peer then
/// answers even while other work holds every thread of the cooperative pool, as a real
/// radio answers whatever its client's machine is busy with.
final class PeerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = PeerExecutor()

    private let ready = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "meshport-peer"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        ready.withLock {
            jobs.append(job)
            ready.signal()
        }
    }

    private func run() {
        while true {
            let batch = ready.withLock {
                while jobs.isEmpty { ready.wait() }
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
