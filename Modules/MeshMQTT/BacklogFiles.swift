import Glibc

/// The backlog folder's files through the system calls themselves: one is written and one
/// removed for every QoS 1 message, and Foundation's `Data.write(options: .atomic)` and
/// `FileManager.removeItem` cost several times the calls they make.
enum BacklogFiles {
    /// Writes `bytes` to `path` whole or not at all: into `path.tmp`, then renamed over `path`.
    /// Returns the system's error text on failure.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return systemError() }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let failure = systemError()
                close(fd)
                unlink(temporary)
                return failure
            }
            written += n
        }
        guard close(fd) == 0 else {
            let failure = systemError()
            unlink(temporary)
            return failure
        }
        guard rename(temporary, path) == 0 else {
            let failure = systemError()
            unlink(temporary)
            return failure
        }
        return nil
    }

    /// Removes `path`; one already gone is not an error. Returns the system's error text on failure.
    static func remove(_ path: String) -> String? {
        unlink(path) == 0 || errno == ENOENT ? nil : systemError()
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}
