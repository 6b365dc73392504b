import Foundation
import MeshServices
import MeshStore
import MeshTransport

/// One radio connected for the length of a command: synced into the store, closed after.
struct ConnectedClient: Sendable {
    let client: MeshClient
    let context: ServiceContext
    let store: MeshStore
    var session: RadioSession { context.session }
    var radioURL: String { context.radioURL }
}

enum RadioConnection {
    /// Connects to the radio the options name (initialization and sync, progress on stderr),
    /// runs `body`, then disconnects and closes the store whatever `body` did.
    /// `keepAlive`: reconnect when the link is lost (chat, listen), else fail.
    static func with<T: Sendable>(_ options: RadioOptions, keepAlive: Bool = false, showProgress: Bool = true,
                                  _ body: (ConnectedClient) async throws -> T) async throws -> T {
        try await open(options, keepAlive: keepAlive, showProgress: showProgress, subscribe: { _ in }) { radio, _ in try await body(radio) }
    }

    /// As `with`, and `body` also gets every client event since before the connection was made
    /// (sync's drained messages included): for `listen` and `packets --follow`. Only they
    /// subscribe this early: an event stream nobody reads keeps every event of a long run.
    static func watching<T: Sendable>(_ options: RadioOptions, keepAlive: Bool = false,
                                      _ body: (ConnectedClient, AsyncStream<ClientEvent>) async throws -> T) async throws -> T {
        try await open(options, keepAlive: keepAlive, showProgress: true, subscribe: { $0.events.subscribe() }, body)
    }

    private static func open<T: Sendable, Events>(_ options: RadioOptions, keepAlive: Bool, showProgress: Bool,
                                                  subscribe: (MeshClient) -> Events,
                                                  _ body: (ConnectedClient, Events) async throws -> T) async throws -> T {
        let target = try RadioTarget.resolve(try options.radioURL())
        let store = try StoreFile.open(options.databasePath)
        let session = RadioSession(url: target.url, clientName: "meshport", commandTimeout: .milliseconds(Int(options.timeout * 1000)),
                                   reconnect: keepAlive ? .standard : .never, transport: { target.transport() })
        let client = MeshClient(session: session, store: store)
        let display = SyncDisplay(enabled: showProgress)
        let all = subscribe(client)
        let watcher = show(client.events.subscribe(), on: display)

        let context: ServiceContext
        do {
            context = try await client.connect()
        } catch {
            watcher.cancel()
            display.finish(ok: false)
            await shutDown(client: client, store: store)
            throw explain(error, on: target)
        }
        // The session reported `ready` before connect returned, so the watcher ends on its own
        // once it has shown every step before it: cancelling it here could drop the last count.
        await watcher.value
        display.finish(ok: true)
        let connected = ConnectedClient(client: client, context: context, store: store)
        let result: T
        do {
            result = try await body(connected, all)
        } catch {
            await shutDown(client: client, store: store)
            throw error
        }
        try await client.disconnect()
        _ = try await store.close()
        return result
    }

    /// Shows sync progress until the session is ready. The stream is held by the task alone:
    /// once the task ends, nothing keeps the subscription, and the hub stops buffering events
    /// for it (a stream still referenced would keep every event of a months-long run).
    private static func show(_ events: AsyncStream<ClientEvent>, on display: SyncDisplay) -> Task<Void, Never> {
        Task { for await event in events { if !display.show(event) { break } } }
    }

    /// After a failure: close what is open, saying (not hiding) what else goes wrong.
    private static func shutDown(client: MeshClient, store: MeshStore) async {
        do {
            try await client.disconnect()
        } catch {
            Output.error("while disconnecting: \(error)")
        }
        do {
            _ = try await store.close()
        } catch {
            Output.error("\(error)")   // StoreError.close names the file
        }
    }

    /// A connection failure with what to try next.
    static func explain(_ error: any Error, on target: RadioTarget) -> any Error {
        // A radio's serial port that never answers APP_START is most often running other firmware.
        if case let SessionError.noAnswer(command, link, seconds) = error, command == "CMD_APP_START", target.driver.flags.contains(.serialConsole) {
            return CLIError("no answer to \(command) within \(Describe.seconds(seconds)) s on \(link): is the radio running USB companion firmware "
                + "(not repeater or room server firmware), and is no other program using the port?", status: .noAnswer)
        }
        // The drivers' own messages already say what to check for refused and missing devices.
        let hint: String? = switch error {
        case TransportError.busy: "close the other program using it, then try again"
        default: nil
        }
        guard let hint else { return error }
        return CLIError("\(error); \(hint)", status: ExitStatus.of(error))
    }
}
