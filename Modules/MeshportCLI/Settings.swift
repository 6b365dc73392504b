import ArgumentParser
import Foundation
import MeshServices

/// `meshport get [NAME]`: the radio's settings, read from it.
struct GetSetting: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Show the radio's settings (all, or one by name).",
        discussion: "Settings: " + SettingsService.settings.map(\.name).joined(separator: ", ") + ". `meshport set --list` describes them.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A setting's name; none: all of them.") var name: String?

    func run() async throws {
        try await reportingRadioErrors {
            let name = name
            let values = try await RadioConnection.with(options, showProgress: false) { radio -> [(name: String, value: String)] in
                let settings = radio.settings
                if let name { return [(name.lowercased(), try await settings.get(name))] }
                return try await settings.all()
            }
            if options.json {
                try Output.json(Dictionary(values.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }))
            } else if name != nil, let one = values.first {
                print(one.value)
            } else {
                Output.lines(values.map { ($0.name, $0.value) })
            }
        }
    }
}

/// `meshport set NAME VALUE`: writes a setting, reads it back, and fails when the radio
/// changed it (clamped, rounded, truncated).
struct SetSetting: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change a setting; it is read back and must match.",
        discussion: "Exit status 6 when the radio refuses the value or reports another one (it clamps values outside its range); 64 for an unknown setting or a value that does not parse.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "The setting's name (`--list` shows them).") var name: String?
    @Argument(help: "The new value.") var value: [String] = []
    @Flag(help: "List the settings with their types and ranges, without connecting.") var list = false

    func validate() throws {
        guard !list else { return }
        guard name != nil, !value.isEmpty else { throw ValidationError("give a setting's name and its new value (`meshport set --list` shows the settings)") }
    }

    func run() async throws {
        try await reportingRadioErrors {
            if list {
                let all = SettingsService.settings
                if options.json {
                    try Output.json(all.map { ["name": $0.name, "type": $0.type, "range": $0.range, "summary": $0.summary, "writable": $0.isWritable] as [String: Any] })
                } else {
                    Output.table(["name", "type", "range", "about"], all.map { [$0.name + ($0.isWritable ? "" : " (read-only)"), $0.type, $0.range, $0.summary] })
                }
                return
            }
            let (name, text) = (name ?? "", value.joined(separator: " "))
            let change = try await RadioConnection.with(options, showProgress: false) { radio in try await radio.settings.set(name, text) }
            if options.json {
                try Output.json(["setting": change.setting, "before": change.before, "wrote": change.wrote, "after": change.after])
            } else {
                print("\(change.setting): \(change.before) -> \(change.after)")
            }
        }
    }
}

/// `meshport time [sync]`: the radio's clock against this machine's.
struct TimeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "time", abstract: "Show the radio's clock, or set it from this machine's with `sync`.",
        discussion: "The radio's clock only moves forward: `sync` sets it when it is behind (more than 60 s, or any amount with --force).")

    @OptionGroup var options: RadioOptions
    @Argument(help: "`sync` to set the radio's clock.") var action: String?
    @Flag(help: "With sync: set it even when the drift is under 60 s.") var force = false

    func validate() throws {
        if let action, action != "sync" { throw ValidationError("the only action is `sync`, not \"\(action)\"") }
        if force, action == nil { throw ValidationError("--force goes with `sync`") }
    }

    func run() async throws {
        try await reportingRadioErrors {
            let (doSync, force) = (action == "sync", force)
            let local = UInt32(Date().timeIntervalSince1970)
            let (radioClock, wasSet) = try await RadioConnection.with(options, showProgress: false) { radio -> (UInt32, Bool) in
                guard doSync else {
                    return (try await radio.session.expect(.getDeviceTime) { if case let .currentTime(v) = $0 { v } else { nil } }, false)
                }
                let sync = try await radio.settings.syncTime(force: force)
                return (sync.radioAfter, sync.wasSet)
            }
            let radioTime = Date(timeIntervalSince1970: TimeInterval(radioClock))
            let drift = Int64(local) - Int64(radioClock)
            if options.json {
                try Output.json(["radio": Describe.iso(radioTime), "radioEpoch": Int(radioClock), "local": Int(local), "driftSeconds": Int(drift), "set": wasSet])
            } else {
                Output.lines([("radio clock", Describe.iso(radioTime)), ("drift", "\(drift) s (this machine minus the radio)"),
                              ("set", wasSet ? "yes" : "no")])
            }
        }
    }
}
