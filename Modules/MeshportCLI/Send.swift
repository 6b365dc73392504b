import ArgumentParser
import Foundation
import MeshServices

/// `meshport send NAME TEXT`: a DM, waiting for its ACK (retries, then flood) unless --no-wait.
struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a direct message to a contact (or a channel message with --channel) and wait for the ACK.",
        discussion: "Exit status 4 when no ACK came after every retry; 3 when the radio did not answer.")

    @OptionGroup var options: RadioOptions
    @OptionGroup var delivery: DeliveryOptions
    @Argument(help: "A contact's name or the start of its key in hex (not with --channel).") var to: String?
    @Argument(help: "The message.") var text: [String] = []
    @Option(help: "Send to this channel slot (number or name) instead of a contact.") var channel: String?
    @Flag(help: "Return once the radio has sent it; do not wait for the ACK.") var noWait = false

    /// With --channel the first word is part of the text.
    var message: String { ((channel == nil ? [] : [to].compactMap { $0 }) + text).joined(separator: " ") }

    func validate() throws {
        if channel == nil, to == nil { throw ValidationError("give a contact (or --channel N) and the message") }
        guard !message.isEmpty else { throw ValidationError("the message is empty") }
    }

    func run() async throws {
        try await reportingRadioErrors {
            let json = options.json, noWait = noWait, message = message
            let outcome = try await RadioConnection.with(options, showProgress: false) { radio in
                if let channel {
                    let slot = try await radio.channels.resolve(channel)
                    return try await MessengerBridge.sendChannel(message, channel: slot.index, messenger: radio.messenger(delivery))
                }
                let contact = try await radio.contacts.resolve(to ?? "")
                let spinner = noWait ? nil : Spinner("sending to \(contact.name)")
                defer { spinner?.stop() }
                // With --no-wait the process ends once the radio has sent it: the message stays
                // `sent` (its ACK, if any, is not awaited and the Messenger is not stopped).
                return try await MessengerBridge.sendDirect(message, to: contact, messenger: radio.messenger(delivery), radio: radio, wait: !noWait) {
                    spinner?.update($0)
                }
            }
            let m = outcome.message
            if json {
                try Output.json(outcome.json)
            } else if outcome.delivered {
                print("delivered" + (outcome.roundTripMs.map { " in \($0) ms" } ?? "")
                      + (outcome.attempts > 1 ? " (attempt \(outcome.attempts)\(outcome.flood ? ", flood" : ""))" : ""))
            } else {
                print(m.status == .sent ? "sent" : "\(m.status)")
            }
        }
    }
}
