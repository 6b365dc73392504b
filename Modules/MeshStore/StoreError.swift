import Foundation
import GRDB

/// Every failure MeshStore reports: what was attempted, on which file or row, and why.
/// Callers get it as a typed error; nothing is swallowed.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Opening or configuring the database file failed.
    case open(path: String, reason: String)
    /// A migration failed; the file stays at its last completed migration.
    case migration(path: String, reason: String)
    /// A read-only open met a schema this build would migrate; a read-write open fixes it.
    case schemaOutdated(path: String, missing: [String])
    /// The file was written by a newer release that knows migrations this build does not.
    case schemaTooNew(path: String, unknown: [String])
    /// A query failed.
    case read(what: String, reason: String)
    /// A write failed and its transaction was rolled back.
    case write(what: String, reason: String)
    /// A write was attempted on a store opened read-only.
    case readOnly(what: String)
    /// The caller named a row that does not exist.
    case notFound(what: String)
    /// A key prefix matched several contacts; the store does not guess.
    case ambiguousPrefix(prefix: String, matches: Int)
    /// An argument the store cannot use (a bad status change, an empty query, ...).
    case invalidArgument(what: String, reason: String)
    /// An online backup failed; the destination may be incomplete.
    case backup(destination: String, reason: String)
    /// The store was closed before the call.
    case closed(what: String)
    /// Closing the file failed; what was written before stays committed.
    case close(path: String, reason: String)

    public var description: String {
        switch self {
        case let .open(path, reason): "cannot open database \(path): \(reason)"
        case let .migration(path, reason): "migrating \(path) failed: \(reason)"
        case let .schemaOutdated(path, missing):
            "\(path) needs migrations \(missing.joined(separator: ", ")); open it read-write once to migrate"
        case let .schemaTooNew(path, unknown):
            "\(path) was written by a newer Meshport (unknown migrations \(unknown.joined(separator: ", ")))"
        case let .read(what, reason): "reading \(what) failed: \(reason)"
        case let .write(what, reason): "writing \(what) failed (rolled back): \(reason)"
        case let .readOnly(what): "cannot \(what): the database is open read-only"
        case let .notFound(what): "\(what) not found"
        case let .ambiguousPrefix(prefix, matches): "key prefix \(prefix) matches \(matches) contacts; give more bytes"
        case let .invalidArgument(what, reason): "invalid \(what): \(reason)"
        case let .backup(destination, reason): "backup to \(destination) failed: \(reason)"
        case let .closed(what): "cannot \(what): the store is closed"
        case let .close(path, reason): "closing \(path) failed: \(reason)"
        }
    }

    /// SQLite's own words for a failure, without GRDB's Swift type names.
    static func reason(_ error: any Error) -> String {
        if let e = error as? StoreError { return e.description }
        if let e = error as? DatabaseError {
            var text = "\(e.resultCode)"
            if let message = e.message { text += ": \(message)" }
            return text
        }
        return "\(error)"
    }
}
