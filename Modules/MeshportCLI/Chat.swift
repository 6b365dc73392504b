import ArgumentParser
import Foundation
import MeshCodec
import MeshServices
import MeshStore

/// `meshport chat`: an interactive session. Shows recent history, prints messages as they
/// arrive, sends what is typed to the current contact or channel; /commands change it.
struct Chat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat interactively: recent history, live messages, and /commands (/help lists them).",
        discussion: ChatCommand.helpText)

    @OptionGroup var options: RadioOptions
    @OptionGroup var delivery: DeliveryOptions
    @Option(help: "Start talking to this contact (name or key prefix).") var to: String?
    @Option(help: "Start on this channel slot (default 0, Public).") var channel: String?
    @Option(help: "Messages of history shown at start and on /history.") var history = 10

    func validate() throws {
        if to != nil, channel != nil { throw ValidationError("give --to or --channel, not both") }
        guard history >= 0 else { throw ValidationError("--history must be 0 or more") }
    }

    func run() async throws {
        try await reportingRadioErrors {
            try await RadioConnection.with(options, keepAlive: true) { radio in
                let session = ChatLoop(radio: radio, messenger: radio.messenger(delivery), history: history, json: options.json)
                try await session.start(to: to, channel: channel)
                try await Interruptible.run { try await session.loop(input: LineInput.lines()) }
                // DMs still waiting for their ACK are marked failed ("cancelled"): nobody follows them any more.
                await session.messenger.stop()
            }
        }
    }
}

/// One chat: the current target, what is printed, what typed lines do.
actor ChatLoop {
    let radio: ConnectedClient
    let line: EventLine
    let history: Int
    let json: Bool
    /// One for the whole chat: DMs are followed to their ACK in the background.
    let messenger: Messenger
    private var target: ChatTarget
    private var done = false
    /// Taken before the history is read: a message drained meanwhile (MSG_WAITING during the
    /// connect) is in one or the other, never lost between them.
    private let events: AsyncStream<ClientEvent>
    /// Messages the history showed, not shown again when their event follows.
    private var shown: Set<Int64> = []

    init(radio: ConnectedClient, messenger: Messenger, history: Int, json: Bool) {
        events = radio.client.events.subscribe()
        self.radio = radio
        self.line = EventLine.reading(radio)
        self.history = history
        self.json = json
        self.messenger = messenger
        target = .channel(index: 0, name: ChannelInfo(index: 0, name: ChannelSecret.publicChannelName, secret: .publicChannel).name)
    }

    func start(to: String?, channel: String?) async throws {
        if let to {
            try await run(.to(to))
        } else {
            try await run(.channel(channel ?? "0"))
        }
    }

    /// Typed lines and arriving events, one at a time, until /quit or end of input.
    func loop(input: AsyncStream<String>) async throws {
        let events = events
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for await event in events { await self.show(event) } }
            group.addTask {
                for await typed in input {
                    try await self.handle(typed)
                    if await self.done { return }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    func handle(_ typed: String) async throws {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }
        guard text.hasPrefix("/") else {
            await send(text)
            return
        }
        do {
            try await run(try ChatCommand(parsing: text))
        } catch let error as CLIError {
            say("error: \(error.description)")
        } catch let error as ContactsError {
            say("error: \(error)")
        } catch let error as ChannelsError {
            say("error: \(error)")
        }
    }

    private func run(_ command: ChatCommand) async throws {
        let (store, id) = (radio.store, radio.context.radio)
        switch command {
        case .help:
            say(ChatCommand.helpText)
        case .quit:
            done = true
        case let .to(name):
            target = .contact(try await radio.contacts.resolve(name))
            say("talking to \(target.label)")
            try await showHistory()
        case let .channel(text):
            let slot = try await radio.channels.resolve(text)
            target = .channel(index: slot.index, name: slot.name)
            say("talking to \(target.label)")
            try await showHistory()
        case .contacts:
            for c in try store.reader.contacts(id) {
                say("  \(c.name) (\(c.contact.type), \(Describe.path(c.contact.outPath)))\(c.unreadCount > 0 ? " \(c.unreadCount) unread" : "")")
            }
        case .channels:
            for c in try store.reader.channels(id) where c.kind != .empty { say("  #\(c.index) \(c.name)") }
        case .history:
            try await showHistory()
        }
    }

    private func showHistory() async throws {
        guard history > 0 else { return }
        let page = try radio.store.reader.timeline(radio.context.radio, target.conversation, limit: history)
        for message in page.messages.reversed() {
            shown.insert(message.id)
            Output.emit(line.message(message))
        }
        try await radio.store.writer.markRead(radio.context.radio, target.conversation)
    }

    private func send(_ text: String) async {
        do {
            let outcome: SendOutcome
            switch target {
            case let .contact(c): outcome = try await MessengerBridge.sendDirect(text, to: c, messenger: messenger, radio: radio, wait: false)
            case let .channel(index, _): outcome = try await MessengerBridge.sendChannel(text, channel: index, messenger: messenger)
            }
            say(line.message(outcome.message))
        } catch {
            say("not sent: \(error)")
        }
    }

    private func show(_ event: ClientEvent) {
        if case let .messageReceived(m) = event, shown.contains(m.id) { return }
        if json {
            // Scripts driving chat read every event as a JSON line.
            do {
                if let json = try line.json(event) { Output.emit(json) }
            } catch {
                Output.error("cannot print \(event) as JSON: \(error)")
            }
            return
        }
        switch event {
        case .messageReceived, .roomPost, .problem, .packetUndecodable, .contactChanged(.discovered), .remote:
            if let text = line.text(event) { Output.emit(text) }
        case let .messageStatus(m) where m.status == .delivered || m.status == .failed:
            say("\(m.status == .delivered ? "delivered" : "not delivered"): \"\(m.text)\" to \(line.place(m.conversation))")
        case let .connection(state) where state != .ready:
            say("connection: \(state)")
        default:
            break
        }
    }

    private func say(_ text: String) { Output.emit(text) }
}
