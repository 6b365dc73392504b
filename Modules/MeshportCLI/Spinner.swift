import Foundation

/// A spinner on stderr while waiting for something (an ACK, a remote answer), on a terminal
/// only: logs and pipes get the result line alone.
final class Spinner: @unchecked Sendable {
    private let lock = NSLock()
    private var label: String
    private var task: Task<Void, Never>?
    private static let frames = ["|", "/", "-", "\\"]

    init(_ label: String, enabled: Bool = Output.stderrIsTerminal) {
        self.label = label
        guard enabled else { return }
        task = Task { [weak self] in
            var i = 0
            while !Task.isCancelled {
                self?.draw(Self.frames[i % Self.frames.count])
                i += 1
                do { try await Task.sleep(for: .milliseconds(120)) } catch { return }
            }
        }
    }

    func update(_ label: String) { lock.withLock { self.label = label } }

    private func draw(_ frame: String) {
        let text = lock.withLock { label }
        StandardStream.error("\r\u{1B}[K\(frame) \(text)")
    }

    /// Stops and clears the line.
    func stop() {
        let running = lock.withLock {
            let t = task
            task = nil
            return t
        }
        guard let running else { return }
        running.cancel()
        StandardStream.error("\r\u{1B}[K")
    }

    deinit { lock.withLock { task }?.cancel() }
}
