import Foundation
import MeshCodec
import MeshSim

/// The radio every measurement starts from: the default mesh (20 contacts, chatter on the
/// Public channel, 7 messages waiting) plus 400 generated companions, so 420 contacts.
func benchState() throws -> SimRadioState {
    var radio = RadioSpec()
    radio.maxContacts = 500
    let state = try Scenario(extendsDefault: true, radio: radio, generate: [GenerateSpec(count: 400, type: "chat")]).state(seed: 1)
    guard state.contacts.count == 420 else { throw BenchError("the bench mesh has \(state.contacts.count) contacts, expected 420") }
    return state
}

/// The command frames an app sends, encoded once before any timing. One iteration of the mix
/// is one second of an active session: GET_DEVICE_TIME, SYNC_NEXT_MESSAGE until
/// NO_MORE_MESSAGES, GET_CONTACT_BY_KEY, SEND_TXT_MSG, GET_CHANNEL, GET_STATS, DEVICE_QUERY.
/// Lookups walk every contact in turn; messages go to every contact in turn (stride 7).
struct CommandMix: Sendable {
    let deviceTime: [UInt8]
    let sync: [UInt8]
    let byKey: [[UInt8]]
    let send: [[UInt8]]
    let channel: [[UInt8]]
    let stats: [[UInt8]]
    let deviceQuery: [UInt8]
    let getContacts: [UInt8]
    /// Simulated time between iterations: the radio's ACKs, path-returns and chatter happen
    /// in between, so their pushes and queued messages are part of the mix.
    static let step = Duration.seconds(1)

    init(contacts: [Contact]) throws {
        let texts = ["ok", "on my way", "are you on tonight?", "signal report please", "copy that, 73",
                     "heading to the market, back in an hour"]
        deviceTime = try Command.getDeviceTime.encode()
        sync = try Command.syncNextMessage.encode()
        byKey = try contacts.map { try Command.getContactByKey($0.publicKey).encode() }
        send = try contacts.indices.map { i in
            let to = contacts[(i * 7) % contacts.count].publicKey.prefix()
            return try Command.sendTextMessage(SendTextMessage(timestamp: 1_770_000_000 + UInt32(i), recipient: to, text: texts[i % texts.count])).encode()
        }
        channel = try (0..<8).map { try Command.getChannel(UInt8($0)).encode() }
        stats = try StatsType.allCases.map { try Command.getStats($0).encode() }
        deviceQuery = try Command.deviceQuery(appTargetVersion: 3).encode()
        getContacts = try Command.getContacts(since: nil).encode()
    }
}

/// Counts (and, when recording, keeps) the pushes the radio writes to its link.
final class PushSink: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var kept: [[UInt8]] = []
    private let keeping: Bool

    init(keeping: Bool = false) { self.keeping = keeping }

    func push(_ frame: [UInt8]) {
        lock.withLock {
            count += 1
            if keeping { kept.append(frame) }
        }
    }

    /// Pushes since the last call.
    func take() -> (count: Int, frames: [[UInt8]]) {
        lock.withLock {
            defer { count = 0; kept = [] }
            return (count, kept)
        }
    }
}

/// The in-process client. `serve` answers one command frame with the frames written back
/// (responses; pushes reach the link's sink). Returns how many frames one iteration got back,
/// responses only.
struct Client {
    let mix: CommandMix
    private(set) var iteration = 0

    init(mix: CommandMix) { self.mix = mix }

    mutating func runIteration(_ serve: ([UInt8]) async throws -> [[UInt8]]) async throws -> Int {
        let i = iteration
        iteration += 1
        var frames = try await serve(mix.deviceTime).count
        for _ in 0..<64 {
            let answer = try await serve(mix.sync)
            frames += answer.count
            if answer.first?.first == ResponseCode.noMoreMessages.rawValue { break }
        }
        frames += try await serve(mix.byKey[i % mix.byKey.count]).count
        frames += try await serve(mix.send[i % mix.send.count]).count
        frames += try await serve(mix.channel[i % mix.channel.count]).count
        frames += try await serve(mix.stats[i % mix.stats.count]).count
        frames += try await serve(mix.deviceQuery).count
        return frames
    }
}

/// One command frame and everything the radio wrote for it (pushes first, as the radio
/// writes them), decoded: the codec-only floor decodes the one and encodes the others.
struct Exchange: Sendable {
    var command: [UInt8]
    var replies: [RadioFrame]
}

/// What SimRadio.receive does, without the actor: the same handler on a state value, for
/// the breakdown (the actor's share is the difference).
struct UnisolatedRadio {
    var state: SimRadioState
    let clock: ManualSimClock
    let sink: PushSink

    mutating func receive(_ frame: [UInt8]) throws -> [[UInt8]] {
        for push in SimHandler.advance(&state, to: clock.elapsed) { sink.push(try push.encode()) }
        return try SimHandler.handle(&state, try Command(decoding: frame), now: clock.elapsed).map { try $0.encode() }
    }
}

/// Where one iteration's time goes, measured on `UnisolatedRadio` (reading the clock around
/// each part adds some tens of nanoseconds per part).
struct PartTimes {
    /// SimHandler.advance: scheduled events (ACKs, path-returns, chatter) and their pushes.
    var events = Duration.zero
    var decode = Duration.zero
    /// SimHandler.handle, by command.
    var handle: [String: Duration] = [:]
    var encode = Duration.zero

    var total: Duration { handle.values.reduce(events + decode + encode, +) }
}

extension UnisolatedRadio {
    mutating func receive(_ frame: [UInt8], timing t: inout PartTimes) throws -> [[UInt8]] {
        let clock = ContinuousClock()
        let t0 = clock.now
        let pushes = try SimHandler.advance(&state, to: self.clock.elapsed).map { try $0.encode() }
        let t1 = clock.now
        let command = try Command(decoding: frame)
        let t2 = clock.now
        let answer = SimHandler.handle(&state, command, now: self.clock.elapsed)
        let t3 = clock.now
        let bytes = try answer.map { try $0.encode() }
        let t4 = clock.now
        for p in pushes { sink.push(p) }
        t.events += t1 - t0
        t.decode += t2 - t1
        t.handle[CommandCode(rawValue: frame[0])?.firmwareName ?? "?", default: .zero] += t3 - t2
        t.encode += t4 - t3
        return bytes
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
