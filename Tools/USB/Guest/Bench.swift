import Foundation
import Synchronization
import MeshConformance
import MeshTransport

/// Round trips and windowed throughput of echo frames through each driver's whole path
/// (PluginTransport, C ABI, the driver's reader), answered by `meshport sim` on the host.
/// The same code measures usb:// and serial:// on the kernel's tty. With two URLs (two
/// identical devices, each answered by its own simulator) both are measured in the same
/// stretch of time, round trips alternating (`LinkWorkload.compare`). Pushes cross the links
/// too and cost both paths alike. One JSON line per URL.
func bench(urls: [String], drivers: [LoadedDriver], roundTrips: Int?, frames: Int?) async throws -> [String] {
    var workload = LinkWorkload()
    workload.roundTrips = roundTrips ?? 300
    workload.total = frames ?? 2_000
    let watchdog = Watchdog(seconds: 10)
    defer { watchdog.stop() }
    var paths: [BenchPath] = []
    let figures: [LinkFigures]
    do {
        for (url, driver) in zip(urls, drivers) { paths.append(try await BenchPath(url: url, driver: driver, watchdog: watchdog)) }
        if paths.count == 2 {
            let (a, b) = try await workload.compare(paths[0].ends, paths[1].ends)
            figures = [a, b]
        } else {
            figures = [try await workload.run(send: paths[0].ends.send, receive: paths[0].ends.receive)]
        }
    } catch {
        for path in paths { await path.transport.close() }
        throw error
    }
    for path in paths { await path.transport.close() }
    return try zip(urls, figures).map { url, f in
        let result: [String: Any] = ["url": url, "p50_us": f.p50Us, "p99_us": f.p99Us, "frames_per_s": f.framesPerSecond,
                                     "frame_bytes": workload.frame.count, "round_trips": workload.roundTrips, "frames": workload.total,
                                     "window": workload.window, "interleaved": urls.count == 2]
        return String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self)
    }
}

/// One open link under test and the echoes coming back on it.
final class BenchPath {
    let transport: PluginTransport
    private let url: String
    private let watchdog: Watchdog
    private var inbox: AsyncStream<[UInt8]>.Iterator

    init(url: String, driver: LoadedDriver, watchdog: Watchdog) async throws {
        self.url = url
        self.watchdog = watchdog
        transport = PluginTransport(url: try TransportURL(url), driver: driver)
        inbox = transport.frames.makeAsyncIterator()
        try await transport.open()
    }

    var ends: LinkEnds {
        LinkEnds(send: { [transport] in try await transport.send($0) }, receive: { try await self.receive() })
    }

    func receive() async throws -> [UInt8] {
        // The simulated radio also pushes (adverts, messages waiting): not echoes, skipped.
        watchdog.waiting(on: url)
        while let frame = await inbox.next() {
            if frame.first.map({ $0 < 0x80 }) ?? false {
                watchdog.echoed()
                return frame
            }
        }
        throw GuestFailure("\(url) ended")
    }
}

/// Ends the program when no echo arrived for `seconds`: a lost frame must fail the run, not
/// hang the guest until its time limit. Only echoes count: the simulator's pushes keep coming
/// when an echo is lost. Says which path was waiting.
final class Watchdog: @unchecked Sendable {
    private let echoes = Atomic(0)
    private let stopped = Atomic(false)
    private let waiting = Mutex("")

    init(seconds: Int) {
        Thread { [self] in
            var last = -1
            var quiet = 0
            while !stopped.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: 1)
                let now = echoes.load(ordering: .relaxed)
                quiet = now == last ? quiet + 1 : 0
                last = now
                if quiet >= seconds && !stopped.load(ordering: .acquiring) {
                    let url = waiting.withLock { $0 }
                    FileHandle.standardError.write(Data("MeshportGuest: no echo for \(seconds) s on \(url) after \(now) echoes on all paths\n".utf8))
                    exit(3)
                }
            }
        }.start()
    }

    func waiting(on url: String) { waiting.withLock { $0 = url } }
    func echoed() { echoes.add(1, ordering: .relaxed) }
    func stop() { stopped.store(true, ordering: .releasing) }
}
