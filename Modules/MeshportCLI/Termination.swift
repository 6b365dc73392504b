import Dispatch
import Glibc

/// SIGINT and SIGTERM, caught from the moment `install` returns; before that they end the
/// process as they do by default. A handler writes the signal's number to a pipe that `wait`
/// reads. (Ignoring the signal and arming a dispatch signal source lost a SIGTERM that came
/// between the two: a simulator stopped right after it announced itself ran on.)
enum Termination {
    /// The pipe's read end (non-blocking), made once; nil when no pipe could be made (out of
    /// descriptors): the signals then keep their default action and still end the process.
    private static let pipeRead: Int32? = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC); _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        signalPipe = ends[1]
        return ends[0]
    }()

    static func install() {
        guard pipeRead != nil else { return }
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Only async-signal-safe calls here; a full pipe drops the number (one is enough).
                var value = number
                _ = write(signalPipe, &value, MemoryLayout<Int32>.size)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Waits for SIGINT or SIGTERM and returns its name; returns early when the task is cancelled.
    static func wait() async -> String {
        install()
        let (stream, continuation) = AsyncStream<String>.makeStream()
        guard let fd = pipeRead else {
            for await _ in stream {}
            return "cancelled"
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .global())
        source.setEventHandler {
            var number: Int32 = 0
            while read(fd, &number, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size {
                continuation.yield(number == SIGINT ? "SIGINT" : "SIGTERM")
            }
        }
        source.resume()
        defer { source.cancel() }
        for await name in stream { return name }
        return "cancelled"
    }
}

/// The pipe's write end, for the signal handler (which cannot capture).
nonisolated(unsafe) private var signalPipe: Int32 = -1
