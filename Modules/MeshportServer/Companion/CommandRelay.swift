import Foundation
import Logging
import MeshCodec
import MeshServices
import MeshStore

/// Passes one external client's command to the radio through Meshport's own session, so it
/// waits its turn with Meshport's commands (one in flight per radio), and says what goes back
/// to that client. What the command changes is kept: messages it drained are stored before
/// they are handed on, messages it sent are recorded, contacts and channels it edited are read
/// back.
struct CommandRelay: Sendable {
    let radio: RadioHandle
    let logger: Logger

    enum Answer: Sendable {
        /// Frames for the client that asked, in order.
        case frames([[UInt8]])
        /// Nothing to send back (no answer came; or a push answered it, and pushes go to every client).
        case none
        /// The radio's link is down: the client's connection is closed, as the radio's own would be.
        case linkDown
    }

    func answer(_ frame: [UInt8]) async -> Answer {
        let command: Command
        do {
            command = try Command(decoding: frame)
        } catch {
            // As the firmware answers a code or length it does not know.
            return encoded([.response(.error(.unsupportedCommand))])
        }
        let context: RadioContext
        do {
            context = try await radio.ready()
        } catch {
            return .linkDown
        }
        let session = context.session
        do {
            let frames: [RadioFrame]
            switch command {
            case .getContacts:
                frames = try await session.exchange(command, timeout: session.commandTimeout * 6, until: Self.contactStreamComplete)
            case .reboot:
                // The radio reboots without answering: its silence is the expected outcome.
                do {
                    _ = try await session.exchange(command, timeout: .milliseconds(200))
                } catch SessionError.noAnswer {
                    return .none
                }
                return .none
            case .sendTelemetryRequest(nil, _):
                // Its own telemetry comes back as a push only, which every client gets anyway.
                let own = context.selfInfo.publicKey.prefix()
                _ = try await session.exchange(command, answeredByPush: { push in
                    if case let .telemetryResponse(prefix, _) = push { return prefix == own }
                    return false
                })
                return .none
            default:
                frames = try await session.exchange(command)
            }
            await keep(command, answer: frames, context: context)
            return encoded(frames.filter { if case .push = $0 { false } else { true } })
        } catch let SessionError.refused(_, _, error) {
            return encoded([.response(.error(error))])
        } catch let SessionError.linkClosed(command, link, reason) {
            logger.notice("companion: \(command) on \(link) lost with the link: \(reason)")
            return .linkDown
        } catch {
            // No answer in time, or one that does not decode: the client hears nothing, as
            // from a radio that stayed silent.
            logger.notice("companion: \(command.name) relayed without an answer: \(error)")
            return .none
        }
    }

    static let contactStreamComplete: @Sendable ([RadioFrame]) -> Bool = { frames in
        guard case .response(.contactsStart) = frames[0] else { return true }
        guard frames.count > 1, let last = frames.last else { return false }
        if case .response(.contact) = last { return false }
        return true
    }

    private func encoded(_ frames: [RadioFrame]) -> Answer {
        var out: [[UInt8]] = []
        for frame in frames {
            do {
                out.append(try frame.encode())
            } catch {
                logger.error("companion: \(frame.name) cannot be encoded again for the client: \(error)")
            }
        }
        return .frames(out)
    }

    /// What the store keeps of an external client's command and its answer.
    private func keep(_ command: Command, answer frames: [RadioFrame], context: RadioContext) async {
        let (store, id) = (context.store, context.radio)
        do {
            switch (command, frames.first) {
            case let (.syncNextMessage, .response(message)?):
                if case .noMoreMessages = message { return }
                try await radio.client.keepDrained(message)
            case let (.sendTextMessage(m), .response(.sent(sent))?):
                guard case let .found(contact) = try store.reader.lookupContact(id, prefix: m.recipient) else { return }
                let saved = try await store.writer.saveOutgoing(id, OutgoingMessage(conversation: .direct(contact.publicKey), text: m.text,
                                                                                   textType: m.textType, senderTimestamp: m.timestamp))
                let updated = try await store.writer.updateMessage(id, id: saved.id, status: .sent, ackCode: sent.ackCode, attempt: Int(m.attempt) + 1)
                context.events.emit(.messageStatus(updated))
            case let (.sendChannelTextMessage(m), .response(.ok)?):
                let saved = try await store.writer.saveOutgoing(id, OutgoingMessage(conversation: .channel(m.channelIndex), text: m.text,
                                                                                   textType: m.textType, senderTimestamp: m.timestamp))
                context.events.emit(.messageStatus(try await store.writer.updateMessage(id, id: saved.id, status: .sent, attempt: 1)))
            case let (.removeContact(key), .response(.ok)?):
                try await store.writer.markContactsRemoved(id, [key])
                context.events.emit(.contactChanged(.removed(key)))
            case (.addUpdateContact, .response(.ok)?), (.resetPath, .response(.ok)?), (.importContact, .response(.ok)?):
                // Read back off the client's turn: the radio's table is the truth.
                let contacts = ContactsService(context: context)
                Task { await Self.report(context) { try await contacts.sync() } }
            case (.setChannel, .response(.ok)?):
                let channels = ChannelsService(context: context)
                Task { await Self.report(context) { try await channels.refresh() } }
            case (.setAdvertName, .response(.ok)?), (.setAdvertLatLon, .response(.ok)?), (.setRadioParams, .response(.ok)?),
                 (.setRadioTxPower, .response(.ok)?), (.setOtherParams, .response(.ok)?):
                // What SELF_INFO carries changed: read it again, so /self shows what the radio now has.
                let settings = SettingsService(context: context)
                let radio = radio
                Task { await Self.report(context) { await radio.settingsChanged(try await settings.readSelfInfo()) } }
            default:
                return
            }
        } catch {
            context.events.emit(.problem("a companion client's \(command.name) went through, but the store did not keep it: \(error)"))
        }
    }

    private static func report(_ context: RadioContext, _ body: @Sendable () async throws -> some Sendable) async {
        do {
            _ = try await body()
        } catch {
            context.events.emit(.problem("reading back what a companion client changed failed: \(error)"))
        }
    }
}
