import ArgumentParser
import MeshServices

struct ContactsFavourite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favourite", abstract: "Star a contact (or --off to unstar): starred contacts are never overwritten when the table is full.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A contact's name or the start of its key in hex.") var contact: String
    @Flag(help: "Remove the star.") var off = false

    func run() async throws {
        try await reportingRadioErrors {
            let updated = try await RadioConnection.with(options, showProgress: false) { radio in
                let service = radio.contacts
                return try await service.setFavourite(try await service.resolve(contact).publicKey, !off)
            }
            try ContactOutput.show(updated, verb: off ? "unstarred" : "starred", json: options.json)
        }
    }
}

struct ContactsShare: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share", abstract: "Have the radio re-broadcast a contact's advert zero-hop, so radios in range can add it.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A contact's name or the start of its key in hex.") var contact: String

    func run() async throws {
        try await reportingRadioErrors {
            let shared = try await RadioConnection.with(options, showProgress: false) { radio in
                let service = radio.contacts
                let c = try await service.resolve(contact)
                try await service.share(c.publicKey)
                return c
            }
            try ContactOutput.show(shared, verb: "shared", json: options.json)
        }
    }
}
