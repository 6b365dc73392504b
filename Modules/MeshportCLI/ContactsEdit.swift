import ArgumentParser
import Foundation
import MeshCodec
import MeshServices
import MeshStore

struct ContactsAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a contact by its public key (with --name) or a meshcore://contact/add link.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "64 hex digits, or a meshcore://contact/add?... link.") var key: String
    @Option(help: "Its name (with a key).") var name: String?
    @Option(help: "chat, repeater, room or sensor (with a key).") var type = "chat"

    static let types: [String: NodeType] = ["chat": .chat, "repeater": .repeater, "room": .room, "sensor": .sensor]

    func link() throws -> ContactURI {
        if key.hasPrefix("meshcore://") {
            do { return try ContactURI(parsing: key) } catch { throw ValidationError("\(error)") }
        }
        guard let publicKey = PublicKey(hex: key) else { throw ValidationError("the key must be 64 hex digits or a meshcore:// link, not \"\(key)\"") }
        guard let name, !name.isEmpty else { throw ValidationError("adding by key needs --name") }
        guard let nodeType = Self.types[type] else { throw ValidationError("--type must be chat, repeater, room or sensor, not \"\(type)\"") }
        return ContactURI(name: name, publicKey: publicKey, type: nodeType)
    }

    func validate() throws { _ = try link() }

    func run() async throws {
        try await reportingRadioErrors {
            let link = try link()
            let saved = try await RadioConnection.with(options, showProgress: false) { radio in try await radio.contacts.add(link) }
            try ContactOutput.show(saved, verb: "added", json: options.json)
        }
    }
}

struct ContactsRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a contact from the radio (its messages stay in the history).")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A contact's name or the start of its key in hex.") var contact: String

    func run() async throws {
        try await reportingRadioErrors {
            let removed = try await RadioConnection.with(options, showProgress: false) { radio in
                let service = radio.contacts
                let c = try await service.resolve(contact)
                try await service.remove(c.publicKey)
                return c
            }
            try ContactOutput.show(removed, verb: "removed", json: options.json)
        }
    }
}

struct ContactsResetPath: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-path", abstract: "Forget a contact's route: the next message goes flood and learns a new one.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A contact's name or the start of its key in hex.") var contact: String

    func run() async throws {
        try await reportingRadioErrors {
            let updated = try await RadioConnection.with(options, showProgress: false) { radio in
                let service = radio.contacts
                return try await service.resetPath(try await service.resolve(contact).publicKey)
            }
            try ContactOutput.show(updated, verb: "path reset", json: options.json)
        }
    }
}

struct ContactsExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a contact's signed advert (or the radio's own) as hex for `contacts import`, and its meshcore:// link.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A contact's name or key prefix; none: this radio.") var contact: String?

    func run() async throws {
        try await reportingRadioErrors {
            let (name, card, link) = try await RadioConnection.with(options, showProgress: false) { radio in
                let service = radio.contacts
                guard let contact else {
                    let me = radio.context.selfInfo
                    return (me.name, try await service.exportCard(nil), ContactURI(name: me.name, publicKey: me.publicKey, type: me.advertType).text)
                }
                let c = try await service.resolve(contact)
                return (c.name, try await service.exportCard(c.publicKey), try await service.uri(c.publicKey).text)
            }
            if options.json {
                try Output.json(["name": name, "advert": Hex.encode(card), "link": link])
            } else {
                print(Hex.encode(card))
                print(link)
            }
        }
    }
}

struct ContactsImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Add a contact from an advert `contacts export` printed (hex) or a meshcore://contact/add link.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "The advert in hex, or a meshcore:// link.") var card: String

    var bytes: [UInt8]? { Hex.decode(card.trimmingCharacters(in: .whitespacesAndNewlines)) }

    func validate() throws {
        if card.hasPrefix("meshcore://") {
            do { _ = try ContactURI(parsing: card) } catch { throw ValidationError("\(error)") }
        } else if bytes?.isEmpty ?? true {
            throw ValidationError("expected the advert as hex digits (as `meshport contacts export` prints it) or a meshcore:// link")
        }
    }

    func run() async throws {
        try await reportingRadioErrors {
            let card = card, bytes = bytes
            let added = try await RadioConnection.with(options, showProgress: false) { radio -> StoredContact in
                let service = radio.contacts
                if card.hasPrefix("meshcore://") { return try await service.add(try ContactURI(parsing: card)) }
                return try await service.importCard(bytes ?? [])
            }
            try ContactOutput.show(added, verb: "imported", json: options.json)
        }
    }
}

enum ContactOutput {
    static func show(_ c: StoredContact, verb: String, json: Bool) throws {
        if json {
            var out = Describe.contactJSON(c)
            out["result"] = verb
            try Output.json(out)
        } else {
            print("\(verb): \(c.name) (\(c.publicKey.prefix(6).hex))")
        }
    }
}
