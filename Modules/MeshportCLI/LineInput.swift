import Foundation

/// Lines typed on stdin, read on a thread of their own (readLine blocks), as an async stream
/// that finishes at end of input.
enum LineInput {
    static func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        Thread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }.start()
        return stream
    }
}
