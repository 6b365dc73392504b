import MeshCodec
import MeshTransport

/// Contact sync on a serial line against its wire time (issue 28: within 1.1x on 115,200 Bd).
/// The radio is `meshport sim --pty --baud N`, whose pty carries bytes at the line's speed
/// (Modules/MeshSimServe/LineRate.swift); the client is the serial driver plugin.
struct SerialSyncFigures: Encodable {
    var client = "meshport"
    var baud: Int
    var contacts: Int
    /// Bytes both ways for one sync: GET_CONTACTS, then CONTACTS_START, every CONTACT and
    /// END_OF_CONTACTS, each framed as on the line.
    var wireBytes: Int
    /// What those bytes take at 10 bits a byte: no client can sync faster.
    var wireMs: Double
    var syncMs: [Double]
    var syncCpuMs: Double

    enum CodingKeys: String, CodingKey {
        case client, baud, contacts, wireBytes = "wire_bytes", wireMs = "wire_ms", syncMs = "contact_sync_ms", syncCpuMs = "contact_sync_cpu_ms"
    }
}

enum SerialSync {
    /// One warm-up sync, then `syncs` timed ones, each from sending GET_CONTACTS to
    /// END_OF_CONTACTS handled.
    static func run(_ url: TransportURL, syncs: Int, contacts: Int) async throws -> SerialSyncFigures {
        guard let baud = url.parameter("baud").flatMap(Int.init), baud > 0 else {
            throw BenchError("\(url): give the line's speed as ?baud=N, the same as the simulator's --baud")
        }
        let client = try await SessionClient.connect(url)
        defer { Task { await client.close() } }
        let clock = ContinuousClock()
        var times: [Double] = []
        var cpu = 0.0
        var bytes = 0
        for i in 0...syncs {
            let cpuBefore = processCPUMicroseconds()
            let start = clock.now
            let sync = try await client.session.syncContacts()
            let ms = (clock.now - start).microseconds / 1000
            guard sync.contacts.count == contacts else { throw BenchError("GET_CONTACTS carried \(sync.contacts.count) contacts, the scenario has \(contacts)") }
            if i == 0 {
                bytes = try wireBytes(sync.contacts, watermark: sync.watermark)
            } else {
                times.append(ms)
                cpu += processCPUMicroseconds() - cpuBefore
            }
        }
        return SerialSyncFigures(baud: baud, contacts: contacts, wireBytes: bytes, wireMs: Double(bytes) * 10 / Double(baud) * 1000,
                                 syncMs: times, syncCpuMs: cpu / 1000 / Double(max(syncs, 1)))
    }

    /// The sync's bytes on the line, framed by MeshCodec as the radio and the app frame them.
    static func wireBytes(_ contacts: [Contact], watermark: UInt32) throws -> Int {
        var total = try FrameEncoder.encode(Command.getContacts(since: nil).encode(), direction: .toRadio).count
        var answers: [RadioFrame] = [.response(.contactsStart(total: UInt32(contacts.count)))]
        answers += contacts.map { .response(.contact($0)) }
        answers.append(.response(.endOfContacts(lastModified: watermark)))
        for frame in answers { total += try FrameEncoder.encode(frame.encode(), direction: .fromRadio).count }
        return total
    }
}
