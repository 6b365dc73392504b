import ArgumentParser
import Foundation
import MeshCodec
import MeshServices

/// `meshport advert [--flood]`: the radio announces itself (SEND_SELF_ADVERT), as the apps'
/// "Advert" button does.
struct Advert: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advert",
        abstract: "Announce this radio to the mesh: its name, key and, when shared, its position.",
        discussion: """
            Zero-hop by default: only radios in direct range hear it, and no repeater passes it on. \
            With --flood every repeater passes it on, within the radio's default flood scope. \
            The position goes with it unless the setting advert_loc_policy is none (`meshport set advert_loc_policy share`).
            """)

    @OptionGroup var options: RadioOptions
    @Flag(help: "Flood it through the repeaters instead of zero-hop.") var flood = false

    func run() async throws {
        try await reportingRadioErrors {
            let flood = flood
            let me = try await RadioConnection.with(options, showProgress: false) { radio -> SelfInfo in
                try await radio.contacts.advertise(flood: flood)
                return radio.context.selfInfo
            }
            let position = me.advertisedPosition
            if options.json {
                var out: [String: Any] = ["name": me.name, "publicKey": me.publicKey.hex, "flood": flood]
                if let position {
                    out["latitude"] = position.latitude
                    out["longitude"] = position.longitude
                }
                try Output.json(out)
            } else {
                Output.lines([
                    ("advertised", "\(me.name) (\(me.publicKey.hex.prefix(12)))"),
                    ("route", flood ? "flood: every repeater passes it on" : "zero-hop: radios in direct range only"),
                    ("position", position.map { String(format: "%.5f, %.5f", $0.latitude, $0.longitude) } ?? "not shared (advert_loc_policy is none)"),
                ])
            }
        }
    }
}
