import MeshCodec

/// Why a setting could not be read or changed. Each case names the setting and says what to do.
public enum SettingsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The radio accepted the write but reports another value (clamped, rounded, truncated).
    case mismatch(setting: String, wrote: String, readBack: String)
    /// The radio refused the write.
    case refused(setting: String, value: String, RadioError)
    /// A value outside what the setting accepts (checked before anything is sent).
    case outOfRange(setting: String, value: String, range: String)
    /// `get`/`set` by name: no such setting.
    case unknownSetting(String, known: [String])
    /// `set` by name: the text is not a value of the setting's type.
    case invalidValue(setting: String, value: String, expected: String)
    /// The setting can be read but not written (max_tx, allowed_repeat_freq).
    case readOnly(setting: String)
    /// The radio's firmware does not report or support this setting.
    case unsupported(setting: String)
    /// Client repeat refused: the radio repeats only on the frequencies of its repeat table.
    case repeatNotAllowed(setting: String, value: String, frequency: String)
    /// SET_DEVICE_TIME refused: the radio's clock only moves forward.
    case clockCannotGoBack(radio: UInt32, wanted: UInt32)

    public var description: String {
        switch self {
        case let .mismatch(setting, wrote, readBack):
            "\(setting): wrote \(wrote) but the radio reports \(readBack); it clamps or rounds values outside what it supports, so set one within its range (see `meshport get \(setting)`) or accept \(readBack)"
        case let .refused(setting, value, error):
            "\(setting) = \(value) refused by the radio: \(error)"
                + (error == .illegalArgument ? " (out of the radio's range)" : error == .unsupportedCommand ? " (not supported by this firmware)" : "")
        case let .outOfRange(setting, value, range):
            "\(setting) = \(value) is out of range: \(range)"
        case let .unknownSetting(name, known):
            "no setting named \(name); settings: \(known.joined(separator: ", "))"
        case let .invalidValue(setting, value, expected):
            "\(setting): cannot read \"\(value)\": expected \(expected)"
        case let .readOnly(setting):
            "\(setting) is read-only"
        case let .unsupported(setting):
            "\(setting) is not supported by this radio's firmware: update it to change this setting"
        case let .repeatNotAllowed(setting, value, frequency):
            "\(setting) = \(value) refused by the radio: it repeats only on an allowed repeat frequency, and \(frequency) MHz is not one; "
                + "`meshport get allowed_repeat_freq` lists them"
        case let .clockCannotGoBack(radio, wanted):
            "the radio's clock (\(radio)) is ahead of \(wanted) and cannot be set back; it will be right once real time catches up, or after a reboot if it has no RTC"
        }
    }
}
