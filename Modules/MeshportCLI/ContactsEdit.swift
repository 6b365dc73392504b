import ArgumentParser
import Foundation
import MeshCodec
import MeshServices
import MeshStore

struct ContactsAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a contact by its public key.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "The contact's public key, 64 hex digits.") var key: String
    @Option(help: "Its name.") var name: String
    @Option(help: "chat, repeater, room or sensor.") var type = "chat"

    func validate() throws {
        guard PublicKey(hex: key) != nil else { throw ValidationError("the key must be 64 hex digits, not \"\(key)\"") }
        guard Self.types[type] != nil else { throw ValidationError("--type must be chat, repeater, room or sensor, not \"\(type)\"") }
    }

    static let types: [String: NodeType] = ["chat": .chat, "repeater": .repeater, "room": .room, "sensor": .sensor]

    func run() async throws {
        try await reportingErrors {
            guard let publicKey = PublicKey(hex: key), let nodeType = Self.types[type] else { return }
            let contact = Contact(publicKey: publicKey, type: nodeType, name: name)
            let saved = try await RadioConnection.with(options) { radio in
                try await radio.session.expectOK(.addUpdateContact(AddUpdateContact(contact: contact)))
                return try await ContactRefresh.readBack(publicKey, radio)
            }
            try ContactOutput.show(saved, verb: "added", json: options.json)
        }
    }
}

struct ContactsRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a contact from the radio.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A contact's name or the start of its key in hex.") var contact: String

    func run() async throws {
        try await reportingErrors {
            let removed = try await RadioConnection.with(options) { radio in
                let c = try ContactResolver.resolve(contact, in: radio.store, radio: radio.context.radio)
                try await radio.session.expectOK(.removeContact(c.publicKey))
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
        try await reportingErrors {
            let updated = try await RadioConnection.with(options) { radio in
                let c = try ContactResolver.resolve(contact, in: radio.store, radio: radio.context.radio)
                try await radio.session.expectOK(.resetPath(c.publicKey))
                return try await ContactRefresh.readBack(c.publicKey, radio)
            }
            try ContactOutput.show(updated, verb: "path reset", json: options.json)
        }
    }
}

struct ContactsExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Print a contact's advert (or the radio's own) as hex, for `contacts import` elsewhere.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A contact's name or key prefix; none: this radio.") var contact: String?

    func run() async throws {
        try await reportingErrors {
            let (name, advert) = try await RadioConnection.with(options, showProgress: false) { radio in
                let c = try contact.map { try ContactResolver.resolve($0, in: radio.store, radio: radio.context.radio) }
                let advert = try await radio.session.expect(.exportContact(c?.publicKey)) { if case let .exportContact(a) = $0 { a } else { nil } }
                return (c?.name ?? radio.context.selfInfo.name, advert)
            }
            if options.json {
                try Output.json(["name": name, "advert": Hex.encode(advert)])
            } else {
                print(Hex.encode(advert))
            }
        }
    }
}

struct ContactsImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Add a contact from an advert `contacts export` printed.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "The advert in hex (a meshcore:// prefix is allowed).") var advert: String

    var bytes: [UInt8]? {
        let text = advert.hasPrefix("meshcore://") ? String(advert.dropFirst("meshcore://".count)) : advert
        return Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func validate() throws {
        guard let bytes, !bytes.isEmpty else { throw ValidationError("the advert must be hex digits, as `meshport contacts export` prints it") }
    }

    func run() async throws {
        try await reportingErrors {
            guard let bytes else { return }
            let added = try await RadioConnection.with(options) { radio in
                try await radio.session.expectOK(.importContact(advert: bytes))
                return try await ContactRefresh.sinceWatermark(radio)
            }
            if options.json {
                try Output.json(added.map(Describe.contactJSON))
            } else {
                Output.table(Describe.contactHeader, added.map(Describe.contactRow))
            }
        }
    }
}

/// Contacts read back after a change, and kept in the store.
enum ContactRefresh {
    static func readBack(_ key: PublicKey, _ radio: Connected) async throws -> StoredContact {
        let contact = try await radio.session.expect(.getContactByKey(key)) { if case let .contact(c) = $0 { c } else { nil } }
        let saved = try await radio.store.writer.saveContacts(radio.context.radio, [contact])
        guard let first = saved.first else { throw CLIError("contact \(key.prefix(6).hex) was read back but not stored") }
        return first
    }

    /// The contacts changed since the stored watermark (GET_CONTACTS since), stored.
    static func sinceWatermark(_ radio: Connected) async throws -> [StoredContact] {
        let since = try radio.store.reader.radio(radio.context.radio)?.contactsLastmod
        let (contacts, watermark) = try await radio.session.syncContacts(since: since)
        let saved = try await radio.store.writer.saveContacts(radio.context.radio, contacts)
        try await radio.store.writer.setContactsLastmod(radio.context.radio, watermark)
        return saved
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
