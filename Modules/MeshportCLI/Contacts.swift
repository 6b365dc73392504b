import ArgumentParser
import Foundation
import MeshCodec
import MeshStore

/// `meshport contacts ...`: the radio's contact table.
struct Contacts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "List, show, add, remove, export and import contacts.",
        subcommands: [ContactsList.self, ContactsShow.self, ContactsAdd.self, ContactsRemove.self, ContactsResetPath.self,
                      ContactsExport.self, ContactsImport.self, ContactsFavourite.self, ContactsShare.self],
        defaultSubcommand: ContactsList.self)
}

struct ContactsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Sync with the radio and list its contacts.")

    @OptionGroup var options: RadioOptions
    @Option(help: "Only this type: chat, repeater, room or sensor.") var type: String?
    @Flag(help: "Read the database only; do not connect.") var offline = false

    func validate() throws {
        if let type, !["chat", "repeater", "room", "sensor"].contains(type) {
            throw ValidationError("--type must be chat, repeater, room or sensor, not \"\(type)\"")
        }
    }

    func run() async throws {
        try await reportingRadioErrors {
            let contacts: [StoredContact]
            if offline {
                let store = try StoreFile.open(options.databasePath, readOnly: true)
                contacts = try store.reader.contacts(try OfflineRadio.pick(store).id)
            } else {
                contacts = try await RadioConnection.with(options) { radio in try radio.store.reader.contacts(radio.context.radio) }
            }
            let shown = contacts.filter { type == nil || $0.contact.type.description == type }
            if options.json {
                try Output.json(shown.map(Describe.contactJSON))
            } else if shown.isEmpty {
                print("no contacts")
            } else {
                Output.table(Describe.contactHeader, shown.map(Describe.contactRow))
            }
        }
    }
}

struct ContactsShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one contact.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A contact's name or the start of its key in hex.") var contact: String

    func run() async throws {
        try await reportingRadioErrors {
            let c = try await RadioConnection.with(options, showProgress: false) { radio in try await radio.contacts.resolve(contact) }
            if options.json {
                try Output.json(Describe.contactJSON(c))
            } else {
                Output.lines([
                    ("name", c.name), ("key", c.publicKey.hex), ("type", c.contact.type.description),
                    ("path", Describe.path(c.contact.outPath) + (c.contact.outPath.length.isNone ? "" : " " + c.contact.outPath.hops.map { Hex.encode($0) }.joined(separator: ","))),
                    ("last advert", Describe.epoch(c.contact.lastAdvert)),
                    ("position", c.contact.position.isZero ? "unknown" : String(format: "%.5f, %.5f", c.contact.position.latitude, c.contact.position.longitude)),
                    ("favourite", c.isFavourite ? "yes" : "no"), ("messages", "\(c.messageCount) (\(c.unreadCount) unread)"),
                ])
            }
        }
    }
}

/// The radio a database-only command reads: the one connected most recently.
enum OfflineRadio {
    static func pick(_ store: MeshStore) throws -> StoredRadio {
        let radios = try store.reader.radios()
        guard let latest = radios.max(by: { ($0.lastConnectedAt ?? .distantPast) < ($1.lastConnectedAt ?? .distantPast) }) else {
            throw CLIError("\(store.path) holds no radio yet: connect once (e.g. `meshport info --radio URL`)")
        }
        return latest
    }
}
