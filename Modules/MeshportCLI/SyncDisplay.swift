import Foundation
import MeshServices

/// Initialization progress on stderr: a bar rewritten in place on a terminal, one plain line
/// per step otherwise (logs and pipes get no carriage returns).
final class SyncDisplay: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool
    private let terminal = Output.stderrIsTerminal
    private var lastStep: String?
    private var contacts = 0
    private var messages = 0
    private var drawn = false
    /// Off a terminal: the last line of the step under way, printed when the next begins.
    private var pendingLine: String?

    init(enabled: Bool) { self.enabled = enabled }

    /// Shows a sync step; false once the session is ready (nothing more to show).
    func show(_ event: ClientEvent) -> Bool {
        if let text = event.problemText {
            lock.withLock { warn(text) }   // shown even without progress: it is not progress
            return true
        }
        guard case let .syncProgress(step) = event else {
            if case .connection(.ready) = event { return false }
            return true
        }
        lock.withLock { draw(step) }
        return true
    }

    private func draw(_ step: SyncStep) {
        let (name, line): (String, String)
        switch step {
        case .selfInfo: (name, line) = ("self", "radio identity")
        case .deviceInfo: (name, line) = ("device", "device info")
        case .clock: (name, line) = ("clock", "clock")
        case let .contacts(received, total):
            contacts = received
            (name, line) = ("contacts", total == 0 ? "contacts" : "contacts \(received)/\(total) " + Self.bar(received, total))
        case .channels: (name, line) = ("channels", "channels")
        case let .messages(drained):
            messages = drained
            (name, line) = ("messages", "messages \(drained) drained")
        }
        guard enabled else { return }
        if terminal {
            write("\r\u{1B}[Ksync: \(line)")
            drawn = true
        } else {
            if name != lastStep, let pendingLine { write("sync: \(pendingLine)\n") }
            pendingLine = line
        }
        lastStep = name
    }

    /// A warning on its own line, the bar (if any) drawn again on the next step.
    private func warn(_ text: String) {
        if terminal && drawn { write("\r\u{1B}[K") }
        write("meshport: warning: \(text)\n")
    }

    /// Ends the display with a summary line (on a terminal, replacing the bar).
    func finish(ok: Bool) {
        lock.withLock {
            guard enabled else { return }
            if terminal && drawn { write("\r\u{1B}[K") }
            // A step under way when initialization failed did not finish: not reported as done.
            if ok, !terminal, let pendingLine { write("sync: \(pendingLine)\n") }
            pendingLine = nil
            if ok { write("synced: \(contacts) contacts changed, \(messages) messages drained\n") }
        }
    }

    static func bar(_ done: Int, _ total: Int, width: Int = 20) -> String {
        let filled = total == 0 ? width : min(width, done * width / total)
        return "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "]"
    }

    private func write(_ text: String) { StandardStream.error(text) }
}
