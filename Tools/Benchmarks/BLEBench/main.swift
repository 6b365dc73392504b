import Foundation
import MeshBLE

// Meshport's LE host against one emulated world (Tools/BLE/world.py bridged to `meshport sim`):
// connect + pair (LE Secure Connections passkey) + first companion frame (APP_START -> SELF_INFO),
// then frame round trips (GET_DEVICE_TIME -> CURRENT_TIME). Prints one JSON object; the peer
// (Bumble's own host, Tools/Benchmarks/BLE/bumble_host_bench.py) measures the same in the same run.
//
// Usage: MeshportBLEBench HCI_SPEC ADDRESS [CONNECTS] [ROUND_TRIPS]

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: MeshportBLEBench tcp:127.0.0.1:PORT F0:00:00:00:00:01 [connects] [round trips]\n".utf8))
    exit(64)
}
let spec = arguments[1]
let peer = try BDAddress(arguments[2], kind: .random)
let connects = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let roundTrips = arguments.count > 4 ? Int(arguments[4]) ?? 200 : 200

let appStart: [UInt8] = [0x01, 0x03] + [UInt8](repeating: 0, count: 6) + Array("meshport-bench".utf8)
let getTime: [UInt8] = [0x05]

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

func cpu() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.isEmpty ? 0 : s[s.count / 2]
}

func run() async throws {
    let host = HCIHost(transport: try openHCITransport(spec), trace: false)
    try await host.start()
    // No bond is kept between runs: every connect pairs, as a first use does.
    let security = LinkSecurity(bonds: nil) { 123456 }

    var connectTimes: [Double] = []
    var link: CompanionLink?
    for i in 0..<connects {
        let start = ContinuousClock.now
        let l = try await CompanionLink.open(host: host, peer: peer, security: security)
        var frames = l.frames.makeAsyncIterator()
        try await l.send(appStart)
        while let f = await frames.next(), f.first != 0x05 {}
        connectTimes.append(seconds(ContinuousClock.now - start))
        if i < connects - 1 { await l.close() } else { link = l }
    }

    guard let link else { exit(1) }
    var frames = link.frames.makeAsyncIterator()
    var trips: [Double] = []
    let cpuStart = cpu()
    for _ in 0..<roundTrips {
        let start = ContinuousClock.now
        try await link.send(getTime)
        while let f = await frames.next(), f.first != 0x09 {}
        trips.append(seconds(ContinuousClock.now - start))
    }
    let cpuUsed = cpu() - cpuStart
    await link.close()
    await host.close()

    let result: [String: Any] = [
        "client": "meshport",
        "connect_pair_first_frame_s": ["median": median(connectTimes), "all": connectTimes],
        "round_trip_s": ["median": median(trips), "mean": trips.reduce(0, +) / Double(max(1, trips.count)), "count": trips.count,
                         "p90": trips.sorted()[trips.count * 9 / 10], "max": trips.max() ?? 0,
                         "slowest_at": trips.firstIndex(of: trips.max() ?? 0) ?? -1],
        "round_trip_cpu_s": cpuUsed / Double(max(1, roundTrips)),
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
}

try await run()
