import Foundation
import MeshCodec
import MeshSim

// Frames per second a MeshSim radio serves to an in-process client (raw command frames in,
// SimRadio.receive, every frame written back counted: responses, each CONTACT of a stream,
// pushes), against the floor: MeshCodec alone decoding the same command frames and encoding
// the same replies, no simulation. Rounds alternate the paths; figures are medians.

let rounds = 5
let goal = 200_000.0
/// Iterations run before anything is timed or recorded (ACK tables, paths and the offline
/// queue reach their steady state), and iterations recorded for the codec-only floor.
let warmUpIterations = 2_000, recordedIterations = 3_000

func log(_ text: String) { FileHandle.standardError.write(Data("sim bench: \(text)\n".utf8)) }

@inline(never) func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Repeats `body` (which returns the frames it served) for at least `seconds`: frames per second.
func framesPerSecond(seconds: Double, _ body: () async throws -> Int) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    var frames = 0
    var elapsed = 0.0
    repeat {
        frames += try await body()
        elapsed = (clock.now - start).seconds
    } while elapsed < seconds
    return Double(frames) / elapsed
}

/// The codec-only floor: decode each command frame, encode each reply.
func codecPass(_ exchanges: [Exchange]) throws -> Int {
    var frames = 0
    var checksum = 0
    for e in exchanges {
        checksum &+= Int(try Command(decoding: e.command).code)
        for reply in e.replies {
            checksum &+= try reply.encode().count
            frames += 1
        }
    }
    blackHole(checksum)
    return frames
}

/// Decodes what the radio wrote, and checks the codec gives back the same bytes.
func decoded(_ frames: [[UInt8]]) throws -> [RadioFrame] {
    try frames.map { bytes in
        let frame = try RadioFrame(decoding: bytes)
        guard try frame.encode() == bytes else { throw BenchError("\(frame.name) does not re-encode to the bytes the radio wrote") }
        return frame
    }
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
}

/// The hop alone: a trivial actor call (a getter) from a nonisolated client; ns per call.
func hopNanoseconds(_ radio: SimRadio, calls: Int = 200_000) async -> Double {
    let start = ContinuousClock.now
    for _ in 0..<calls { blackHole(await radio.nextDue) }
    return (ContinuousClock.now - start).seconds / Double(calls) * 1e9
}

/// The same call from a client on the main actor: every call leaves the main thread and comes back.
@MainActor func mainActorHopNanoseconds(_ radio: SimRadio, calls: Int = 20_000) async -> Double {
    let start = ContinuousClock.now
    for _ in 0..<calls { blackHole(await radio.nextDue) }
    return (ContinuousClock.now - start).seconds / Double(calls) * 1e9
}

/// ns per lookup over every contact: by full key (GET_CONTACT_BY_KEY) and by 6-byte prefix (SEND_TXT_MSG).
func lookupNanoseconds(_ table: ContactTable) -> (key: Double, prefix: Double) {
    let keys = table.contacts.map(\.publicKey)
    let prefixes = keys.map { $0.prefix() }
    let passes = 200
    var found = 0
    var start = ContinuousClock.now
    for _ in 0..<passes { for k in keys where table.contact(k) != nil { found += 1 } }
    let byKey = (ContinuousClock.now - start).seconds
    start = ContinuousClock.now
    for _ in 0..<passes { for p in prefixes where table.contact(prefix: p) != nil { found += 1 } }
    let byPrefix = (ContinuousClock.now - start).seconds
    precondition(found == 2 * passes * keys.count, "every contact is found")
    let n = Double(passes * keys.count)
    return (byKey / n * 1e9, byPrefix / n * 1e9)
}

func runBench() async throws -> Data {
    let loadBefore = loadAverage()
    log("building the mesh (default mesh + 400 companions)")
    let state = try benchState()
    let mix = try CommandMix(contacts: state.contacts.contacts)

    // (a) The mix, on one radio whose clock moves one step per iteration.
    let clock = ManualSimClock()
    let radio = SimRadio(state: state, clock: clock)
    let recorder = PushSink(keeping: true)
    _ = await radio.connect { recorder.push($0) }
    var client = Client(mix: mix)
    var exchanges: [Exchange] = []
    var composition: [String: Int] = [:]
    for n in 0..<(warmUpIterations + recordedIterations) {
        clock.advance(by: CommandMix.step)
        _ = try await client.runIteration { frame in
            let reply = await radio.receive(frame).frames
            let pushes = recorder.take().frames
            if n >= warmUpIterations {
                let all = try decoded(pushes + reply)
                for f in all { composition[f.name, default: 0] += 1 }
                exchanges.append(Exchange(command: frame, replies: all))
            }
            return reply
        }
    }
    let recordedFrames = exchanges.reduce(0) { $0 + $1.replies.count }
    let sink = PushSink()
    _ = await radio.connect { sink.push($0) }

    // The same handler without the actor, from the same start, warmed up the same way.
    let plainClock = ManualSimClock()
    var plain = UnisolatedRadio(state: state, clock: plainClock, sink: PushSink())
    var plainClient = Client(mix: mix)
    for _ in 0..<(warmUpIterations + recordedIterations) {
        plainClock.advance(by: CommandMix.step)
        _ = try await plainClient.runIteration { try plain.receive($0) }
    }
    _ = plain.sink.take()

    // (b) The contact stream, on a radio whose clock stands still: 420 contacts, 422 frames.
    let streamRadio = SimRadio(state: state, clock: ManualSimClock())
    let streamSink = PushSink()
    _ = await streamRadio.connect { streamSink.push($0) }
    let stream = try decoded(await streamRadio.receive(mix.getContacts).frames)
    guard stream.count == 422, streamSink.take().count == 0 else { throw BenchError("GET_CONTACTS gave \(stream.count) frames, expected 422") }
    let streamExchange = [Exchange(command: mix.getContacts, replies: stream)]

    var simMix: [Double] = [], codecMix: [Double] = [], plainMix: [Double] = []
    var simStream: [Double] = [], codecStream: [Double] = []
    var hops: [Double] = [], mainHops: [Double] = [], keyLookups: [Double] = [], prefixLookups: [Double] = []
    var framesPerIteration: [Double] = []
    for round in 1...rounds {
        log("round \(round)/\(rounds) (load \(loadAverage()))")
        let iterationsBefore = client.iteration
        var served = 0
        simMix.append(try await framesPerSecond(seconds: 1.0) {
            clock.advance(by: CommandMix.step)
            let frames = try await client.runIteration { await radio.receive($0).frames } + sink.take().count
            served += frames
            return frames
        })
        framesPerIteration.append(Double(served) / Double(client.iteration - iterationsBefore))
        codecMix.append(try await framesPerSecond(seconds: 0.5) { try codecPass(exchanges) })
        plainMix.append(try await framesPerSecond(seconds: 0.5) {
            plainClock.advance(by: CommandMix.step)
            return try await plainClient.runIteration { try plain.receive($0) } + plain.sink.take().count
        })
        simStream.append(await framesPerSecond(seconds: 0.5) { await streamRadio.receive(mix.getContacts).frames.count })
        codecStream.append(try await framesPerSecond(seconds: 0.5) { try codecPass(streamExchange) })
        hops.append(await hopNanoseconds(streamRadio))
        mainHops.append(await mainActorHopNanoseconds(streamRadio))
        let lookups = lookupNanoseconds(state.contacts)
        keyLookups.append(lookups.key)
        prefixLookups.append(lookups.prefix)
    }
    // Where the mix's time goes, part by part, on the handler without the actor.
    var parts = PartTimes()
    for _ in 0..<recordedIterations {
        plainClock.advance(by: CommandMix.step)
        _ = try await plainClient.runIteration { try plain.receive($0, timing: &parts) }
    }
    let perIteration = { (d: Duration) in (d.seconds / Double(recordedIterations) * 1e8).rounded() / 100 }
    var partsUs = ["events (SimHandler.advance)": perIteration(parts.events), "decode": perIteration(parts.decode),
                   "encode": perIteration(parts.encode)]
    for (name, d) in parts.handle { partsUs["handle " + name] = perIteration(d) }
    let heaviest = partsUs.sorted { $0.value > $1.value }.prefix(3).map { "\($0.key) \($0.value) us" }
    log("mix, us per iteration (handler without the actor): total \(perIteration(parts.total)); heaviest: \(heaviest.joined(separator: ", "))")

    let problems = await radio.problems + streamRadio.problems
    guard problems.isEmpty else { throw BenchError("the radio could not encode frames: \(problems.prefix(3))") }

    let mixRate = median(simMix), streamRate = median(simStream)
    let met = mixRate >= goal && streamRate >= goal
    func fmt(_ x: Double) -> String { String(Int(x.rounded())).reversed().enumerated().map { $0 > 0 && $0 % 3 == 0 ? "\($1)," : "\($1)" }.reversed().joined() }
    log("mix \(fmt(mixRate)) frames/s (codec floor \(fmt(median(codecMix)))), contact stream \(fmt(streamRate)) frames/s (codec floor \(fmt(median(codecStream))))")
    log("goal >= \(fmt(goal)) frames/s: \(met ? "met" : "MISSED")")

    let iterations = Double(recordedIterations)
    let result: [String: Any] = [
        "mix": [
            "frames_per_s": mixRate, "codec_frames_per_s": median(codecMix),
            "frames_per_s_rounds": simMix, "codec_frames_per_s_rounds": codecMix,
            "frames_per_iteration": median(framesPerIteration),
            "recorded_frames_per_iteration": Double(recordedFrames) / iterations,
            "composition_per_iteration": composition.mapValues { (Double($0) / iterations * 100).rounded() / 100 },
            "step_seconds": CommandMix.step.seconds,
        ],
        "contacts": [
            "frames_per_s": streamRate, "codec_frames_per_s": median(codecStream),
            "frames_per_s_rounds": simStream, "codec_frames_per_s_rounds": codecStream,
            "contacts": state.contacts.count, "frames_per_stream": stream.count,
        ],
        "breakdown": [
            "mix_no_actor_frames_per_s": median(plainMix),
            "actor_call_ns": median(hops), "main_actor_call_ns": median(mainHops),
            "contact_by_key_ns": median(keyLookups), "contact_by_prefix_ns": median(prefixLookups),
            "mix_us_per_iteration": partsUs,
        ],
        "goal_frames_per_s": goal, "goal_met": met, "rounds": rounds,
        "load_before": loadBefore, "load_after": loadAverage(),
    ]
    return try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
}
