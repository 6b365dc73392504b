import Foundation

/// What every client does against a fresh `meshport sim`, in this order, and what
/// meshcore_py_session_bench.py does the same way: APP_START (not timed), `warmUp`
/// DEVICE_QUERY round trips (not timed), `roundTrips` timed one by one, one untimed and
/// `contactSyncs` timed full GET_CONTACTS streams, then one timed drain of the queue.
struct Workload {
    var warmUp = 50
    var roundTrips = 500
    var contactSyncs = 5
    var contacts = 1_000
    var messages = 1_000
}

/// The operations a client offers the workload; each throws when the answer is wrong.
protocol BenchClient {
    func roundTrip() async throws
    /// The number of contacts the stream carried.
    func syncContacts() async throws -> Int
    /// The number of messages drained.
    func drain() async throws -> Int
}

/// One client's figures on one sim (times in microseconds and milliseconds).
struct RoundFigures: Encodable {
    var client: String
    var roundTripUs: [Double]
    var contactSyncMs: [Double]
    var drainMs: Double
    /// The client process's own CPU time (user + system, every thread) per operation: what
    /// the client costs, apart from the time it waits for the simulator.
    var roundTripCpuUs: Double
    var contactSyncCpuMs: Double
    var drainCpuMs: Double
    var contacts: Int
    var messages: Int

    enum CodingKeys: String, CodingKey {
        case client, roundTripUs = "round_trip_us", contactSyncMs = "contact_sync_ms", drainMs = "drain_ms",
             roundTripCpuUs = "round_trip_cpu_us", contactSyncCpuMs = "contact_sync_cpu_ms", drainCpuMs = "drain_cpu_ms", contacts, messages
    }
}

/// This process's CPU time so far (user + system), in microseconds.
func processCPUMicroseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func us(_ t: timeval) -> Double { Double(t.tv_sec) * 1e6 + Double(t.tv_usec) }
    return us(usage.ru_utime) + us(usage.ru_stime)
}

extension Workload {
    func run(_ client: some BenchClient, name: String) async throws -> RoundFigures {
        let clock = ContinuousClock()
        for _ in 0..<warmUp { try await client.roundTrip() }
        var trips: [Double] = []
        trips.reserveCapacity(roundTrips)
        let tripsCPU = processCPUMicroseconds()
        for _ in 0..<roundTrips {
            let start = clock.now
            try await client.roundTrip()
            trips.append((clock.now - start).microseconds)
        }
        let tripCpuUs = (processCPUMicroseconds() - tripsCPU) / Double(roundTrips)
        var syncs: [Double] = []
        var syncsCPU = 0.0
        for i in 0...contactSyncs {
            let cpu = processCPUMicroseconds()
            let start = clock.now
            let count = try await client.syncContacts()
            let ms = (clock.now - start).microseconds / 1000
            guard count == contacts else { throw BenchError("GET_CONTACTS carried \(count) contacts, the scenario has \(contacts)") }
            if i > 0 {   // the first is the warm-up
                syncs.append(ms)
                syncsCPU += processCPUMicroseconds() - cpu
            }
        }
        let drainCPU = processCPUMicroseconds()
        let start = clock.now
        let drained = try await client.drain()
        let drainMs = (clock.now - start).microseconds / 1000
        let drainCpuMs = (processCPUMicroseconds() - drainCPU) / 1000
        guard drained == messages else { throw BenchError("drained \(drained) messages, the scenario queues \(messages)") }
        return RoundFigures(client: name, roundTripUs: trips, contactSyncMs: syncs, drainMs: drainMs, roundTripCpuUs: tripCpuUs,
                            contactSyncCpuMs: syncsCPU / 1000 / Double(contactSyncs), drainCpuMs: drainCpuMs, contacts: contacts, messages: drained)
    }
}

extension Duration {
    var microseconds: Double { Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12 }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
