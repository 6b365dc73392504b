import MeshCodec
import MeshStore

/// What Meshport keeps of a command another client of the radio sent through it (the server's
/// companion re-export, Modules/MeshportServer/Companion/CommandRelay.swift) and of the radio's
/// answer: messages it drained are stored before they are handed on, messages it sent are
/// recorded, contacts and channels it edited are read back, and SELF_INFO is read again after
/// a setting it carries changed. The radio's table is the truth; the store follows it.
public struct RelayedCommand: Sendable {
    let context: ServiceContext
    let client: MeshClient

    public init(context: ServiceContext, client: MeshClient) {
        self.context = context
        self.client = client
    }

    /// Keeps what `command`, answered by `frames`, changed. Read-backs run after this returns,
    /// off the client's turn; `selfInfoChanged` gets SELF_INFO read again. A failure is told as
    /// a problem event: the client's command went through whatever the store does.
    public func keep(_ command: Command, answer frames: [RadioFrame], selfInfoChanged: @escaping @Sendable (SelfInfo) async -> Void) async {
        let (store, id, context) = (context.store, context.radio, context)
        do {
            switch (command, frames.first) {
            case let (.syncNextMessage, .response(message)?):
                if case .noMoreMessages = message { return }
                do {
                    try await client.keepDrained(message)
                } catch {
                    context.events.emit(.problem("a message a companion client drained is held until the store takes it: \(error)"))
                    return
                }
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
                try await ContactsService(context: context).removed(key)
            case (.addUpdateContact, .response(.ok)?), (.resetPath, .response(.ok)?), (.importContact, .response(.ok)?):
                let contacts = ContactsService(context: context)
                Task { await Self.report(context) { try await contacts.sync() } }
            case (.setChannel, .response(.ok)?):
                let channels = ChannelsService(context: context)
                Task { await Self.report(context) { try await channels.refresh() } }
            case (.setAdvertName, .response(.ok)?), (.setAdvertLatLon, .response(.ok)?), (.setRadioParams, .response(.ok)?),
                 (.setRadioTxPower, .response(.ok)?), (.setOtherParams, .response(.ok)?):
                let settings = SettingsService(context: context)
                Task { await Self.report(context) { await selfInfoChanged(try await settings.readSelfInfo()) } }
            default:
                return
            }
        } catch {
            context.events.emit(.problem("a companion client's \(command.name) went through, but the store did not keep it: \(error)"))
        }
    }

    private static func report(_ context: ServiceContext, _ body: @Sendable () async throws -> some Sendable) async {
        do {
            _ = try await body()
        } catch {
            context.events.emit(.problem("reading back what a companion client changed failed: \(error)"))
        }
    }
}
