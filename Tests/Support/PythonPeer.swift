import Foundation

/// The repository's root, from this file's place in it.
let repositoryRootURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs a script of the repository (`Tools/Interop/...`) with the test peers' Python (`.venv`,
/// made by `make venv` from Tools/requirements.txt), `input` on its stdin, without holding a
/// pool thread: exit status, stdout and stderr.
public func runPythonScript(_ script: String, _ arguments: [String], input: String) async throws -> (status: Int32, out: String, err: String) {
    let python = repositoryRootURL.appendingPathComponent(".venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else {
        throw ProcessFailure("no \(python): run `make venv` first")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [repositoryRootURL.appendingPathComponent(script).path] + arguments
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    async let out = offPool { readToEnd(stdout.fileHandleForReading) }
    async let err = offPool { readToEnd(stderr.fileHandleForReading) }
    try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let (outData, errData) = await (out, err)
    await offPool { process.waitUntilExit() }
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}
