import ArgumentParser
import Foundation

/// Human output: aligned `label  value` lines; machine output: one JSON document.
enum Output {
    static func lines(_ rows: [(String, String)]) {
        let width = rows.map(\.0.count).max() ?? 0
        for (label, value) in rows {
            print(label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value)
        }
    }

    /// Columns padded to their widest cell; the last column is not padded.
    static func table(_ header: [String], _ rows: [[String]]) {
        let all = [header] + rows
        let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
        for row in all {
            let cells = row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
            print(cells.joined(separator: "  "))
        }
    }

    static func json(_ value: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        print(String(decoding: data, as: UTF8.self))
    }

    /// One line written at once, unbuffered: `listen` and `chat` lines reach a pipe as they
    /// happen (print's buffer would hold them). Streaming commands use this alone.
    static func emit(_ line: String) {
        StandardStream.output(line + "\n")
    }

    /// A sentence about what a long-running command is doing, on stderr (stdout stays data).
    static func note(_ message: String) {
        StandardStream.error("meshport: \(message)\n")
    }

    static func error(_ message: String) {
        StandardStream.error("meshport: error: \(message)\n")
    }

    /// The command line asked for JSON (`--json` before any `--`): a script then gets one
    /// JSON document on stdout whatever the outcome, a failure included.
    static let jsonRequested = CommandLine.arguments.dropFirst().prefix { $0 != "--" }.contains("--json")

    /// A failure as a `--json` command's one document: `error` (the sentence stderr also
    /// shows), `exit_status`, and what the command knew (`details`, a JSON object).
    static func jsonFailure(_ message: String, exitStatus: Int32, details: Data? = nil) {
        do {
            var out: [String: Any] = [:]
            if let details { out = try JSONSerialization.jsonObject(with: details) as? [String: Any] ?? [:] }
            out["error"] = message
            out["exit_status"] = Int(exitStatus)
            try json(out)
        } catch {
            self.error("cannot print the failure as JSON: \(error)")
        }
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    static func seconds(_ s: Double) -> String { String(format: "%.3f s", s) }
}

/// Progress on stderr: one rewritten line on a terminal, a plain line per step otherwise
/// (logs and pipes get no carriage returns).
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let terminal = Output.stderrIsTerminal
    private var lastPrinted: [String: Int] = [:]

    func update(phase: String, done: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let percent = total == 0 ? 100 : done * 100 / total
        if terminal {
            StandardStream.error("\r\(phase): \(done)/\(total) (\(percent)%)\u{1B}[K")
            if done == total { StandardStream.error("\n") }
        } else if percent / 10 != lastPrinted[phase, default: -1] / 10 || done == total {
            lastPrinted[phase] = percent
            StandardStream.error("\(phase): \(done)/\(total) (\(percent)%)\n")
        }
    }
}

/// Runs a command body and turns its failures into one line on stderr and exit status 1.
func reportingErrors(_ body: () async throws -> Void) async throws {
    try await reportingErrors(status: { _ in .failure }, body)
}

/// The radio commands' version: the exit status says what kind of failure it was
/// (`ExitStatus.of`: no answer 3, not delivered 4, link 5, refused 6, usage 64).
func reportingRadioErrors(_ body: () async throws -> Void) async throws {
    try await reportingErrors(status: ExitStatus.of, body)
}

private func reportingErrors(status: (any Error) -> ExitStatus, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch {
        Output.error("\(error)")
        let code = status(error).rawValue
        if Output.jsonRequested { Output.jsonFailure("\(error)", exitStatus: code, details: (error as? CLIError)?.details) }
        throw ExitCode(code)
    }
}
