import Foundation

/// PRAGMA integrity_check and foreign_key_check, plus the schema state.
public struct IntegrityReport: Hashable, Sendable {
    /// "ok", or SQLite's list of problems.
    public var integrity: [String]
    /// Rows whose foreign key points nowhere: "table rowid -> parent".
    public var foreignKeyViolations: [String]
    public var appliedMigrations: [String]
    public var pendingMigrations: [String]
    public var pageCount: Int
    public var pageSize: Int

    public var isOK: Bool { integrity == ["ok"] && foreignKeyViolations.isEmpty }
}

/// What an online backup copied.
public struct BackupReport: Hashable, Sendable {
    public var destination: String
    public var pages: Int
    public var bytes: Int
    public var seconds: Double
}

/// Progress of a long operation (seed, backup), for a terminal or a log.
public struct StoreProgress: Hashable, Sendable {
    public var phase: String
    public var done: Int
    public var total: Int

    public init(phase: String, done: Int, total: Int) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}
