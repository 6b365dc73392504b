import ArgumentParser
import Foundation

/// `meshport db ...`: the local history database.
struct DB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Inspect and maintain the local history database.",
        subcommands: [DBSeed.self, DBSearch.self, DBCheck.self, DBBackup.self])

    /// Declared here so `meshport db --read-only check` parses; each subcommand reads it.
    @OptionGroup var options: DBOptions
}

/// Options every `db` subcommand takes.
struct DBOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Database file.", valueName: "path"))
    var db: String = DBOptions.defaultPath

    @Flag(name: .long, help: "Open the file read-only (SQLITE_OPEN_READONLY): safe on a live database.")
    var readOnly = false

    /// $MESHPORT_DB, then $XDG_DATA_HOME/meshport/meshport.db (see `Paths`).
    static var defaultPath: String { Paths.database }
}
