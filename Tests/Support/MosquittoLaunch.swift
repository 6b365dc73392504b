import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// As root, mosquitto would switch to its own user, which cannot read a test's folder.
public let mosquittoUserLine = getuid() == 0 ? "user root\n" : ""

/// Starts mosquitto with `folder`'s mosquitto.conf (which logs to `folder`'s mosquitto.log)
/// and waits (at most 30 s) until it has logged that it is running and `ports` accept
/// connections. The log, not the ports alone: a port taken by another test's server accepts
/// too, while mosquitto, failing to bind it, exits. Throws what mosquitto logged when it exits
/// first ("Address already in use" when a port was taken).
public func launchMosquitto(folder: TempDir, ports: [UInt16]) async throws -> Process {
    let logFile = folder.path("mosquitto.log")
    let earlier = mosquittoLog(logFile)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
    process.arguments = ["-c", folder.path("mosquitto.conf")]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let child = ChildProcess(process)
    // The log is appended to by every start on this folder: only this start's lines count.
    let up = await offPool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, child.process.isRunning {
            if mosquittoLog(logFile).dropFirst(earlier.count).contains(" running"), ports.allSatisfy(acceptsConnections) { return true }
            usleep(50_000)
        }
        return false
    }
    let said = String(mosquittoLog(logFile).dropFirst(earlier.count))
    guard up, process.isRunning else {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            await waitForExit(process)
            throw ProcessFailure("mosquitto did not open its ports within 30 s: \(said)")
        }
        await waitForExit(process)
        throw ProcessFailure("mosquitto exited (status \(process.terminationStatus)) before opening its ports: \(said)")
    }
    return process
}

private func mosquittoLog(_ path: String) -> String {
    do { return try String(contentsOfFile: path, encoding: .utf8) } catch { return "" }   // not written yet
}

/// Whether 127.0.0.1:`port` accepts a TCP connection now.
private func acceptsConnections(_ port: UInt16) -> Bool {
    do {
        let fd = try connectLoopback(port: Int(port))
        close(fd)
        return true
    } catch {
        return false
    }
}
