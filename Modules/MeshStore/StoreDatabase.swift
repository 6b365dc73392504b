import Foundation
import GRDB

/// The open file and the policy every access goes through: each read or write names what
/// it does, and any failure becomes a `StoreError` that says so (and is reported to the log).
struct StoreDatabase: Sendable {
    /// A DatabasePool (WAL: one writer, concurrent readers) when read-write; a read-only
    /// queue otherwise (a file opened read-only cannot be switched to WAL).
    let writer: any DatabaseWriter
    /// One more read-only connection for single-statement lookups: taking a reader from the
    /// pool costs more than an indexed lookup itself (~14 us of ~28 us on the 2-core box).
    var lookups: DatabaseQueue?
    let path: String
    let options: StoreOptions
    /// Shared by the reader and the writer (a class: every copy of this value holds the same one).
    let channelSlots = ChannelSlotCache()

    var isReadOnly: Bool { options.mode == .readOnly }
    var now: Date { options.now() }

    func fail(_ error: StoreError) -> StoreError {
        options.onError(error)
        return error
    }

    /// A read in one deferred transaction: consistent across its statements.
    func read<T>(_ what: @autoclosure () -> String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        try run({ .read(what: what(), reason: $0) }) { try writer.read(body) }
    }

    /// A read of a single statement: needs no transaction (one statement is atomic), and
    /// runs on the lookup connection, which saves taking a reader from the pool.
    func readOne<T>(_ what: @autoclosure () -> String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        try run({ .read(what: what(), reason: $0) }) {
            if let lookups { return try lookups.unsafeRead(body) }
            return try writer.unsafeRead(body)
        }
    }

    /// One write transaction: all of `body` commits, or nothing does.
    func write<T>(_ what: @autoclosure () -> String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        guard !isReadOnly else { throw fail(.readOnly(what: what())) }
        return try run({ .write(what: what(), reason: $0) }) { try writer.write(body) }
    }

    /// Runs `access`; a StoreError passes through, anything else is described by `describe`.
    private func run<T>(_ describe: (String) -> StoreError, _ access: () throws -> T) throws(StoreError) -> T {
        do {
            return try access()
        } catch let e as StoreError {
            throw fail(e)
        } catch {
            throw fail(describe(StoreError.reason(error)))
        }
    }
}
