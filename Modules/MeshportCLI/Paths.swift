import Foundation

/// Where meshport keeps its files (XDG base directories): the config under
/// $XDG_CONFIG_HOME/meshport (~/.config/meshport), the history database under
/// $XDG_DATA_HOME/meshport (~/.local/share/meshport). MESHPORT_DB names the database directly.
enum Paths {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static var home: String { environment["HOME"] ?? NSHomeDirectory() }

    /// An XDG variable counts only when set to an absolute path (the specification says so).
    private static func base(_ variable: String, default fallback: String) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return home + "/" + fallback
    }

    static var configFile: String { base("XDG_CONFIG_HOME", default: ".config") + "/meshport/config.json" }

    /// Remembered remote-node passwords (`login --remember`), mode 0600.
    static var passwordFile: String { base("XDG_CONFIG_HOME", default: ".config") + "/meshport/passwords.json" }

    static var database: String {
        if let path = environment["MESHPORT_DB"], !path.isEmpty { return path }
        return base("XDG_DATA_HOME", default: ".local/share") + "/meshport/meshport.db"
    }
}
