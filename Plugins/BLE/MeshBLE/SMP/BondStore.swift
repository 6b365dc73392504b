import Foundation

/// Bonds kept between runs in one JSON file, plus this host's own identity key. The file is
/// mode 0600 in a directory created 0700, and is replaced atomically: a new file is written
/// beside it (created 0600, so the keys are never readable by others, not even briefly),
/// flushed and renamed over it. Changes hold an exclusive lock on a `.lock` file next to it,
/// so two processes (or two pairings in one) cannot lose each other's bond.
public struct BondStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_DATA_HOME/meshport/ble/bonds.json`, or `~/.local/share/meshport/ble/bonds.json`
    /// when XDG_DATA_HOME is unset or empty.
    public static func defaultPath(environment: [String: String]) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/share"
        return base + "/meshport/ble/bonds.json"
    }

    struct File: Codable {
        var bonds: [SMPBond] = []
        /// This host's identity resolving key (16 bytes), made once.
        var localIRK: [UInt8]?
    }

    /// The bond with a radio, by the address connected to or its identity address.
    public func bond(for peer: BDAddress) throws(BondStoreError) -> SMPBond? {
        try read().bonds.first { $0.matches(peer) }
    }

    public func all() throws(BondStoreError) -> [SMPBond] {
        try read().bonds
    }

    /// Stores a bond, replacing any earlier one with the same radio.
    public func save(_ bond: SMPBond) throws(BondStoreError) {
        try change { file in
            file.bonds.removeAll { old in old.peer == bond.peer || (bond.peerIdentity != nil && old.peerIdentity == bond.peerIdentity) }
            file.bonds.append(bond)
            return true
        }
    }

    /// Removes the bond with a radio (by either address); false when there was none.
    @discardableResult
    public func forget(_ peer: BDAddress) throws(BondStoreError) -> Bool {
        var removed = false
        try change { file in
            let before = file.bonds.count
            file.bonds.removeAll { $0.matches(peer) }
            removed = file.bonds.count != before
            return removed
        }
        return removed
    }

    /// This host's IRK (16 random bytes), made and stored on first use.
    public func localIRK() throws(BondStoreError) -> [UInt8] {
        var irk: [UInt8] = []
        try change { file in
            if let existing = file.localIRK, existing.count == 16 {
                irk = existing
                return false
            }
            irk = SMPInitiator.systemRandom(16)
            file.localIRK = irk
            return true
        }
        return irk
    }

    // MARK: File

    /// Reads, changes and (when `body` says so) writes the file under the lock.
    private func change(_ body: (inout File) -> Bool) throws(BondStoreError) {
        try makeDirectory()
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw error("cannot open its lock file \(path).lock: \(errnoText())") }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw error("cannot lock \(path).lock: \(errnoText())") }
        var file = try read()
        if body(&file) { try write(file) }
    }

    func read() throws(BondStoreError) -> File {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            if !FileManager.default.fileExists(atPath: path) { return File() }
            throw self.error("cannot read it (\(error.localizedDescription))")
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(File.self, from: data)
        } catch {
            throw self.error("it is not a bond file (\(error)); move it away or delete it to pair again")
        }
    }

    private func write(_ file: File) throws(BondStoreError) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            data = try encoder.encode(file)
        } catch {
            throw self.error("cannot encode the bonds: \(error)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        let temp = folder + "/.bonds-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw error("cannot create \(temp): \(errnoText())") }
        var written = 0
        let ok = data.withUnsafeBytes { raw -> Bool in
            while written < raw.count, let base = raw.baseAddress {
                let n = Foundation.write(fd, base + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += n
            }
            // The umask cannot widen 0600, but make the mode exact before the name is visible.
            return fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        }
        let reason = errnoText()
        close(fd)
        guard ok else {
            unlink(temp)
            throw error("cannot write \(temp): \(reason)")
        }
        guard rename(temp, path) == 0 else {
            let reason = errnoText()
            unlink(temp)
            throw error("cannot replace it: \(reason)")
        }
        do {
            try PrivateFile.write(data, to: path)
        } catch {
            throw BondStoreError(path: path, reason: error.reason)
        }
    }

    /// Creates the missing directories of the path, each 0700.
    private func makeDirectory() throws(BondStoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        var missing: [String] = []
        var current = folder
        while !current.isEmpty, current != "/", !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() {
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                throw error("cannot create the directory \(directory): \(errnoText())")
            }
            // mkdir's mode passes through the umask; make it exactly 0700.
            guard chmod(directory, 0o700) == 0 else { throw error("cannot set the mode of \(directory): \(errnoText())") }
        }
    }

    private func error(_ reason: String) -> BondStoreError { BondStoreError(path: path, reason: reason) }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}

/// The bond file cannot be read or written: which file, and why.
public struct BondStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "BLE bond file \(path): \(reason)" }
}
