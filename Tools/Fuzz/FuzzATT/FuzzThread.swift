import Foundation

/// Runs the global executor's jobs on the fuzzing thread. On the global pool every step of a
/// discovery (a task, an actor hop, a resumed continuation) woke another thread and waited for
/// it; the switches took most of the target's time (3,300 executions a second). Installed
/// through the concurrency runtime's enqueue hook, so every task and default actor of the
/// target lands here; a timer that fires (Task.sleep) still runs where the runtime puts it.
enum FuzzThread {
    private typealias Original = @convention(thin) (UnownedJob) -> Void
    private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    private static let queue = JobQueue()

    /// Takes over the global executor's queue; once, before the first task.
    static func install() {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else {
            fatalError("the Swift runtime has no swift_task_enqueueGlobal_hook to run jobs on the fuzzing thread")
        }
        let hook: Hook = { job, _ in FuzzThread.queue.push(job) }
        symbol.assumingMemoryBound(to: Hook?.self).pointee = hook
    }

    /// Runs `operation` as a task, and every job queued meanwhile, until it has returned.
    static func run(_ operation: @escaping @Sendable () async -> Void) {
        Task {
            await operation()
            queue.finish()
        }
        queue.drain()
    }
}

/// The jobs waiting for the fuzzing thread, and whether the operation has ended.
private final class JobQueue: SerialExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) { push(UnownedJob(job)) }

    func push(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs until `finish` and none left, and is ready for the next operation.
    func drain() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                finished = false
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}
