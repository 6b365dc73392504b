import Foundation

/// Meshport's BLE settings in `$XDG_CONFIG_HOME/meshport/ble.json`: the controller to use when
/// a URL names none, and saved PINs per radio (`meshport ble pin ADDRESS PIN`).
public struct BLEConfig: Codable, Equatable, Sendable {
    /// `hci=` value used when the URL has none.
    public var hci: String?
    /// PIN per radio address ("F0:00:00:00:00:01": "123456").
    public var pins: [String: String]

    public init(hci: String? = nil, pins: [String: String] = [:]) {
        self.hci = hci
        self.pins = pins
    }

    /// The controller when neither the URL nor the config names one.
    public static let defaultHCI = "hci0"

    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/meshport/ble.json"
    }

    /// Reads the file; a missing file is an empty config, an unreadable one a typed error.
    public static func load(from path: String = defaultPath()) throws(BLEConfigError) -> BLEConfig {
        guard FileManager.default.fileExists(atPath: path) else { return BLEConfig() }
        do {
            return try JSONDecoder().decode(BLEConfig.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw BLEConfigError(path: path, reason: "\(error.localizedDescription); fix or delete the file")
        }
    }

    /// Writes the file with mode 0600 (it holds PINs), atomically.
    public func save(to path: String = defaultPath()) throws(BLEConfigError) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            data = try encoder.encode(self)
        } catch {
            throw BLEConfigError(path: path, reason: error.localizedDescription)
        }
        do {
            try PrivateFile.write(data, to: path)
        } catch {
            throw BLEConfigError(path: path, reason: error.reason)
        }
    }

    /// The saved PIN for a radio, as a passkey.
    public func passkey(for address: BDAddress) -> UInt32? {
        pins[address.description].flatMap { UInt32($0) }
    }
}

public struct BLEConfigError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "BLE config \(path): \(reason)" }
}
