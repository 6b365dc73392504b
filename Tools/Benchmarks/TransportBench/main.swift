import Foundation
import MeshConformance
import MeshSimServe
import MeshTransport

// The plugin boundary's cost: frame round trips and windowed throughput through a loaded
// driver (PluginTransport: C ABI, driver reader thread, AsyncStream) against the same
// socket or pty used directly in this process (blocking reads: no threads), and against
// the same socket read by a thread into an AsyncStream (a Transport's shape without the
// plugin). Rounds alternate the three paths; each figure is the median of the rounds. Prints one JSON object for report.py.

let rounds = 3
let workload = LinkWorkload()

/// The path a frame takes through a loaded driver.
final class PluginPath {
    let transport: PluginTransport
    private var inbox: AsyncStream<[UInt8]>.Iterator

    init(_ url: String, driver: LoadedDriver) async throws {
        transport = PluginTransport(url: try TransportURL(url), driver: driver)
        inbox = transport.frames.makeAsyncIterator()
        try await transport.open()
    }

    func receive() async throws -> [UInt8] {
        guard let frame = await inbox.next() else { throw BenchError("the link ended") }
        return frame
    }
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func summary(_ runs: [LinkFigures]) -> [String: Double] {
    ["p50_us": median(runs.map(\.p50Us)), "p99_us": median(runs.map(\.p99Us)), "frames_per_s": median(runs.map(\.framesPerSecond))]
}

func measure(_ name: String, driver: LoadedDriver, pluginURL: () -> String, direct: () throws -> DirectLink) async throws -> [String: Any] {
    var plugin: [LinkFigures] = [], baseline: [LinkFigures] = [], threaded: [LinkFigures] = []
    for round in 1...rounds {
        FileHandle.standardError.write(Data("transport: \(name) round \(round)/\(rounds)\n".utf8))
        let path = try await PluginPath(pluginURL(), driver: driver)
        plugin.append(try await workload.run(send: { try await path.transport.send($0) }, receive: { try await path.receive() }))
        await path.transport.close()
        let link = try direct()
        baseline.append(try await workload.run(send: { try link.send($0) }, receive: { try link.receive() }))
        let shaped = ThreadedLink(try direct())
        threaded.append(try await workload.run(send: { try shaped.send($0) }, receive: { try await shaped.receive() }))
        shaped.stop()
    }
    return ["plugin": summary(plugin), "direct": summary(baseline), "threaded": summary(threaded)]
}

do {
    let loader = PluginLoader.loadDefault()
    guard let tcpDriver = loader.driver(for: "tcp"), let serialDriver = loader.driver(for: "serial") else {
        throw BenchError("the tcp and serial drivers are not beside this executable; build MeshportDriverTCP and MeshportDriverSerial in the same configuration")
    }
    let server = try TCPPeer(serve: echoFrames)
    defer { server.stop() }
    let tcp = try await measure("tcp", driver: tcpDriver, pluginURL: { "tcp://127.0.0.1:\(server.port)" },
                                direct: { try DirectLink(tcpPort: server.port) })
    let pty = try PtyPeer(serve: echoFrames, linkPath: FileManager.default.temporaryDirectory.appendingPathComponent("meshport-bench-pty-\(getpid())").path)
    defer { pty.close() }
    let serial = try await measure("pty", driver: serialDriver, pluginURL: { "serial://\(pty.slavePath)" },
                                   direct: { try DirectLink(ptyPath: pty.slavePath) })
    let result: [String: Any] = ["tcp": tcp, "pty": serial, "frame_bytes": workload.frame.count, "round_trips": workload.roundTrips,
                                 "throughput_frames": workload.total, "window": workload.window, "rounds": rounds]
    let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("MeshportTransportBench: \(error)\n".utf8))
    exit(1)
}
