import ArgumentParser
import Foundation
import MeshBLE

/// `meshport ble`: the BLE driver's own state: bonds with radios, saved PINs, the controller.
struct BLE: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract: "Bluetooth LE bonds, PINs and the controller Meshport's LE host uses.",
        discussion: """
            Bonds live in $XDG_DATA_HOME/meshport/ble/bonds.json, PINs and the default controller in \
            $XDG_CONFIG_HOME/meshport/ble.json (both mode 0600). See Docs/ble.md.
            """,
        subcommands: [Bonds.self, Forget.self, Pin.self, Controller.self])

    static var bondStore: BondStore { BondStore(path: BondStore.defaultPath(environment: ProcessInfo.processInfo.environment)) }

    static func address(_ text: String) throws -> BDAddress {
        do {
            return try BDAddress(text, kind: .random)
        } catch {
            throw ValidationError(error.description)
        }
    }

    struct Bonds: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the radios this computer is bonded with.")
        @Flag(help: "Print the result as JSON.") var json = false

        func run() async throws {
            try await reportingErrors {
                let bonds = try BLE.bondStore.all()
                let formatter = ISO8601DateFormatter()
                if json {
                    try Output.json(bonds.map { b in
                        ["address": b.peer, "identity": b.peerIdentity ?? NSNull(), "pairing": b.secureConnections ? "le-secure-connections" : "legacy",
                         "authenticated": b.authenticated, "keySize": Int(b.keySize), "pairedAt": formatter.string(from: b.pairedAt)] as [String: Any]
                    })
                } else if bonds.isEmpty {
                    print("no bonds (a radio is paired on first connect; see meshport ble pin)")
                } else {
                    Output.table(["address", "pairing", "paired at"], bonds.map { b in
                        [b.peer, b.secureConnections ? "LE Secure Connections" : "legacy", formatter.string(from: b.pairedAt)]
                    })
                }
            }
        }
    }

    struct Forget: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete the bond with a radio, so the next connection pairs again.",
            discussion: "Do this after the radio was reset or re-flashed (it no longer knows this computer's key).")
        @Argument(help: ArgumentHelp("The radio's address.", valueName: "address")) var address: String

        func run() async throws {
            let peer = try BLE.address(address)
            try await reportingErrors {
                if try BLE.bondStore.forget(peer) {
                    print("forgot the bond with \(peer); the next connection pairs with its PIN")
                } else {
                    print("no bond with \(peer) was stored")
                }
            }
        }
    }

    struct Pin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a radio's PIN (or remove it), used when pairing needs one and the URL gives none.")
        @Argument(help: ArgumentHelp("The radio's address.", valueName: "address")) var address: String
        @Argument(help: ArgumentHelp("Its 6-digit PIN.", valueName: "pin")) var pin: String?
        @Flag(help: "Remove the saved PIN.") var remove = false

        func validate() throws {
            if let pin, pin.count != 6 || Int(pin) == nil { throw ValidationError("a PIN is 6 digits, not '\(pin)'") }
            if remove == (pin != nil) { throw ValidationError("give a PIN, or --remove") }
        }

        func run() async throws {
            let peer = try BLE.address(address)
            try await reportingErrors {
                var config = try BLEConfig.load()
                config.pins[peer.description] = remove ? nil : pin
                try config.save()
                print(remove ? "removed the PIN of \(peer)" : "saved the PIN of \(peer) in \(BLEConfig.defaultPath())")
            }
        }
    }

    struct Controller: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "controller",
            abstract: "Save (or show) the controller used when a ble:// URL has no hci= parameter.",
            discussion: "hci0 (BlueZ adapter 0 through the HCI user channel), tcp:HOST:PORT (an H4 emulator) or uart:/dev/ttyUSB1[@BAUD].")
        @Argument(help: ArgumentHelp("The controller.", valueName: "hci")) var hci: String?

        func run() async throws {
            try await reportingErrors {
                var config = try BLEConfig.load()
                if let hci {
                    config.hci = hci
                    try config.save()
                }
                print(config.hci ?? "\(BLEConfig.defaultHCI) (default)")
            }
        }
    }
}
