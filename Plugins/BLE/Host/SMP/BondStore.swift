import Foundation

/// Bonds kept between runs in one JSON file of mode 0600 (its directory 0700), written
/// atomically, plus this host's own identity key. A later connection encrypts with the stored
/// LTK instead of pairing again.
public struct BondStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_DATA_HOME/meshport/ble/bonds.json` (~/.local/share when unset).
    public static func defaultPath(environment: [String: String]) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return base + "/meshport/ble/bonds.json"
    }

    private struct File: Codable {
        var bonds: [SMPBond] = []
        /// This host's identity resolving key, made once.
        var localIRK: [UInt8]?
    }

    /// The bond with a radio, by the address connected to or its identity address.
    public func bond(for peer: BDAddress) throws(BondStoreError) -> SMPBond? {
        try read().bonds.first { $0.peer == peer.description || $0.peerIdentity == peer.description }
    }

    public func all() throws(BondStoreError) -> [SMPBond] {
        try read().bonds
    }

    /// Stores a bond, replacing any earlier one with the same radio.
    public func save(_ bond: SMPBond) throws(BondStoreError) {
        var file = try read()
        file.bonds.removeAll { $0.peer == bond.peer }
        file.bonds.append(bond)
        try write(file)
    }

    /// Removes the bond with a radio; false when there was none.
    @discardableResult
    public func forget(_ peer: BDAddress) throws(BondStoreError) -> Bool {
        var file = try read()
        let before = file.bonds.count
        file.bonds.removeAll { $0.peer == peer.description || $0.peerIdentity == peer.description }
        guard file.bonds.count != before else { return false }
        try write(file)
        return true
    }

    /// This host's IRK, made and stored on first use.
    public func localIRK() throws(BondStoreError) -> [UInt8] {
        var file = try read()
        if let irk = file.localIRK { return irk }
        let irk = (0..<16).map { _ in UInt8.random(in: 0...255) }
        file.localIRK = irk
        try write(file)
        return irk
    }

    private func read() throws(BondStoreError) -> File {
        guard FileManager.default.fileExists(atPath: path) else { return File() }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw BondStoreError(path: path, reason: "cannot read it (\(error.localizedDescription)); delete it to pair again")
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
            throw BondStoreError(path: path, reason: error.localizedDescription)
        }
        do {
            try PrivateFile.write(data, to: path)
        } catch {
            throw BondStoreError(path: path, reason: error.reason)
        }
    }
}

/// The bond file cannot be read or written.
public struct BondStoreError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "BLE bonds \(path): \(reason)" }
}
