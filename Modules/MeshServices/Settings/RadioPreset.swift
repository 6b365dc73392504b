import Foundation
import MeshCodec

/// The regional LoRa settings the MeshCore apps offer by name. A preset is only a shorthand
/// for `radio`'s four values: `meshport set radio eu-uk-narrow`, or the list beside the field
/// in the web UI; the raw "freq,bw,sf,cr" form stays for everything else.
public struct RadioPreset: Hashable, Sendable {
    /// The name for the command line: lower case, words joined by "-" ("eu-uk-narrow").
    public let id: String
    /// The name the apps show ("EU/UK (Narrow)").
    public let name: String
    public let params: RadioParams

    init(_ name: String, _ frequencyKHz: UInt32, _ bandwidthHz: UInt32, _ spreadingFactor: UInt8, _ codingRate: UInt8) {
        self.name = name
        id = name.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
        params = RadioParams(frequencyKHz: frequencyKHz, bandwidthHz: bandwidthHz, spreadingFactor: spreadingFactor, codingRate: codingRate)
    }

    /// As the apps list them (their suggested radio settings), regions in alphabetical order.
    public static let all: [RadioPreset] = [
        RadioPreset("Australia", 915_800, 250_000, 10, 5),
        RadioPreset("Australia (Narrow)", 916_575, 62_500, 7, 8),
        RadioPreset("Australia (Mid)", 915_075, 125_000, 9, 5),
        RadioPreset("Australia: SA, WA", 923_125, 62_500, 8, 8),
        RadioPreset("Australia: QLD", 923_125, 62_500, 8, 5),
        RadioPreset("Brazil", 923_125, 62_500, 8, 8),
        RadioPreset("Costa Rica", 910_525, 125_000, 11, 5),
        RadioPreset("Czech Republic (Narrow)", 869_432, 62_500, 7, 5),
        RadioPreset("EU/UK (Narrow)", 869_618, 62_500, 8, 8),
        RadioPreset("EU/UK (Long Range)", 869_525, 250_000, 11, 5),
        RadioPreset("EU 433MHz (Long Range)", 433_650, 250_000, 11, 5),
        RadioPreset("EU 433MHz (Narrow)", 433_650, 62_500, 8, 8),
        RadioPreset("Hungary", 869_618, 62_500, 7, 5),
        RadioPreset("Netherlands", 869_618, 62_500, 7, 5),
        RadioPreset("New Zealand (Narrow)", 917_375, 62_500, 7, 5),
        RadioPreset("New Zealand", 917_375, 250_000, 11, 5),
        RadioPreset("Portugal 433", 433_375, 62_500, 9, 6),
        RadioPreset("Portugal 868", 869_618, 62_500, 7, 6),
        RadioPreset("Slovakia", 869_618, 62_500, 7, 5),
        RadioPreset("Switzerland", 869_618, 62_500, 8, 8),
        RadioPreset("USA/Canada (Recommended)", 910_525, 62_500, 7, 5),
        RadioPreset("USA (Philadelphia)", 902_250, 500_000, 11, 5),
        RadioPreset("USA (Southern California)", 927_875, 62_500, 7, 5),
        RadioPreset("Vietnam (Narrow)", 920_250, 62_500, 8, 5),
        RadioPreset("Vietnam", 920_250, 250_000, 11, 5),
    ]

    /// The values as the `radio` setting shows them ("869.618,62.5,8,8").
    public var values: String { SettingFormat.radio(params) }

    /// The preset named `text`, by id or by the apps' name, ignoring case.
    public static func named(_ text: String) -> RadioPreset? {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        return all.first { $0.id == wanted || $0.name.lowercased() == wanted }
    }
}
