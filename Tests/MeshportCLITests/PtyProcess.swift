import Foundation
import MeshportTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal nobody answers on: a serial device that stays silent.
final class SilentPty: Sendable {
    let master: Int32
    let path: String

    init() throws {
        (master, path) = try openPty()
    }

    deinit { close(master) }
}

/// A new pseudo-terminal: its master descriptor and the slave's path. /dev/ptmx directly:
/// unlock the slave and ask its number (posix_openpt and friends are not exported to Swift).
/// TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned).
func openPty() throws -> (master: Int32, slave: String) {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0 else {
        let reason = String(cString: strerror(errno))
        if master >= 0 { close(master) }
        throw ProcessFailure("cannot open a pseudo-terminal: \(reason)")
    }
    return (master, "/dev/pts/\(number)")
}

/// `meshport` running on a pseudo-terminal, as a person runs it: stdin, stdout and stderr are
/// the pty's slave side (so isatty is true); the test types into the master and reads what
/// the program prints.
final class PtyProcess: @unchecked Sendable {
    private let process = Process()
    private let master: Int32
    private let lock = NSLock()
    private var output = Data()
    private let changed = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    init(_ arguments: [String], environment: [String: String]) throws {
        let slavePath: String
        (master, slavePath) = try openPty()
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw ProcessFailure("cannot open \(slavePath)") }
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.executableURL = try meshportBinary()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        let fd = master
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }   // EIO once the child and our copy of the slave are closed
                lock.withLock { output.append(contentsOf: buffer[0..<n]) }
                changed.signal()
            }
            changed.signal()
        }.start()
    }

    var text: String { lock.withLock { String(decoding: output, as: UTF8.self) } }

    /// Waits until the output contains `needle`; false after `seconds` without it. The
    /// semaphore waits on a thread of their own, not the cooperative pool (see `offPool`).
    func waitFor(_ needle: String, seconds: Double = 30) async -> Bool {
        await offPool { [self] in
            let deadline = DispatchTime.now() + seconds
            while !text.contains(needle) {
                if changed.wait(timeout: deadline) == .timedOut { return text.contains(needle) }
            }
            return true
        }
    }

    /// Types a line (the terminal turns the newline into return).
    func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits for the program to end, off the cooperative pool; its exit status, or nil if it
    /// is still running.
    func waitForExit(seconds: Double = 20) async -> Int32? {
        let exited = exited
        guard await offPool({ exited.wait(timeout: .now() + seconds) == .success }) else { return nil }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }
}
