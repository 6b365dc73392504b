import Dispatch

/// Runs async work from a driver entry point (a plain thread, per the ABI) and waits for it.
/// The host calls open, close and discover on its own queue, never on Swift's cooperative pool,
/// so waiting here does not starve the tasks doing the work.
func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task {
        do {
            box.result = .success(try await work())
        } catch {
            box.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
