import ArgumentParser
import Foundation
import MeshCodec
import MeshStore

extension DBOptions {
    /// Opens the store as the flags say; a read-write open creates the folder it needs.
    func open(durability: Durability = .full) throws -> MeshStore {
        try StoreFile.open(db, readOnly: readOnly, durability: durability)
    }

    /// The radio a command works on: the one given by a key prefix, or the only one stored.
    func radio(_ store: MeshStore, prefix: String?) throws -> StoredRadio {
        let radios = try store.reader.radios()
        if let prefix {
            let matches = radios.filter { $0.publicKey.hex.hasPrefix(prefix.lowercased()) }
            guard matches.count == 1 else {
                throw CLIError(matches.isEmpty ? "no radio's key starts with \(prefix)" : "\(matches.count) radios' keys start with \(prefix); give more digits")
            }
            return matches[0]
        }
        guard radios.count == 1 else {
            let list = radios.map { "\($0.publicKey.prefix(8).hex) \($0.name)" }.joined(separator: ", ")
            throw CLIError(radios.isEmpty ? "\(db) holds no radio" : "\(db) holds \(radios.count) radios (\(list)); choose one with --radio")
        }
        return radios[0]
    }
}

enum StoreFile {
    /// Opens the store at `path`; a read-write open creates the folder it needs.
    static func open(_ path: String, readOnly: Bool = false, durability: Durability = .full) throws -> MeshStore {
        if !readOnly {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CLIError("cannot create \(folder): \(error.localizedDescription)")
            }
        }
        return try MeshStore.open(at: path, options: StoreOptions(mode: readOnly ? .readOnly : .readWrite, durability: durability))
    }
}

/// A failure the command reports in words (printed on stderr), with its exit status.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let status: ExitStatus
    /// What the command knew when it failed (a JSON object: the message a failed send left),
    /// added to the JSON document a `--json` command prints for its failure.
    let details: Data?
    init(_ description: String, status: ExitStatus = .failure, details: Data? = nil) {
        self.description = description
        self.status = status
        self.details = details
    }
}
