import Glibc

/// The backlog folder's message files, through the system calls themselves: a file is written
/// and removed for every QoS 1 message. A removed file is kept as a spare (renamed to
/// `N.spare`, at most `spareLimit`) and the next message is written into it: creating and
/// deleting a file per message made ext4 search its inode bitmaps past the recently deleted
/// ones, which cost more than the rest of the uplink together.
struct BacklogFiles {
    static let spareSuffix = ".spare"
    static let spareLimit = 512

    let directory: String
    private var spares: [String] = []
    private var spareCount = 0

    init(directory: String) {
        self.directory = directory
    }

    /// Writes `bytes` to `path` whole or not at all: into a spare (or a new temporary file),
    /// then renamed to `path`. Returns the system's error text on failure.
    mutating func write(_ bytes: [UInt8], to path: String) -> String? {
        let spare = spares.popLast()
        let temporary = spare ?? path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return Self.systemError() }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let failure = Self.systemError()
                close(fd)
                unlink(temporary)
                return failure
            }
            written += n
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else {
            let failure = Self.systemError()
            unlink(temporary)
            return failure
        }
        return nil
    }

    /// Removes `path` (kept as a spare while there are few); one already gone is not an error.
    /// Returns the system's error text on failure.
    mutating func remove(_ path: String) -> String? {
        if spares.count < Self.spareLimit {
            spareCount += 1
            let spare = directory + "/" + String(spareCount) + Self.spareSuffix
            if rename(path, spare) == 0 {
                spares.append(spare)
                return nil
            }
            if errno == ENOENT { return nil }
            return Self.systemError()
        }
        return unlink(path) == 0 || errno == ENOENT ? nil : Self.systemError()
    }

    /// Removes a file left by an earlier process (a spare, a write cut short).
    static func discard(_ path: String) -> String? {
        unlink(path) == 0 || errno == ENOENT ? nil : systemError()
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}
