import Foundation
import Synchronization
import MeshConformance
import MeshTransport

/// Round trips and windowed throughput of echo frames through the driver's whole path
/// (PluginTransport, C ABI, the driver's reader), answered by `meshport sim` on the host.
/// The same code measures usb:// and serial:// on the kernel's tty for the same device.
/// Pushes cross the link too and cost both paths alike.
func bench(url: String, driver: LoadedDriver, roundTrips: Int?, frames: Int?) async throws -> String {
    var workload = LinkWorkload()
    workload.roundTrips = roundTrips ?? 300
    workload.total = frames ?? 2_000
    let transport = PluginTransport(url: try TransportURL(url), driver: driver)
    try await transport.open()
    var inbox = transport.frames.makeAsyncIterator()
    let watchdog = Watchdog(url: url, seconds: 10)
    defer { watchdog.stop() }
    let figures: LinkFigures
    do {
        figures = try await workload.run(send: { try await transport.send($0) }, receive: {
            // The simulated radio also pushes (adverts, messages waiting): not echoes, skipped.
            while let frame = await inbox.next() {
                watchdog.progress()
                if frame.first.map({ $0 < 0x80 }) ?? false { return frame }
            }
            throw BenchFailure("the link ended")
        })
    } catch {
        await transport.close()
        throw error
    }
    await transport.close()
    let result: [String: Any] = ["url": url, "p50_us": figures.p50Us, "p99_us": figures.p99Us, "frames_per_s": figures.framesPerSecond,
                                 "frame_bytes": workload.frame.count, "round_trips": workload.roundTrips, "frames": workload.total,
                                 "window": workload.window]
    return String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self)
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Ends the program when no frame arrived for `seconds`: a lost frame must fail the run, not
/// hang the guest until its time limit.
final class Watchdog: @unchecked Sendable {
    private let received = Atomic(0)
    private let stopped = Atomic(false)

    init(url: String, seconds: Int) {
        Thread { [self] in
            var last = -1
            var quiet = 0
            while !stopped.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: 1)
                let now = received.load(ordering: .relaxed)
                quiet = now == last ? quiet + 1 : 0
                last = now
                if quiet >= seconds {
                    FileHandle.standardError.write(Data("MeshportUSBGuest: no frame for \(seconds) s on \(url) after \(now) received\n".utf8))
                    exit(3)
                }
            }
        }.start()
    }

    func progress() { received.add(1, ordering: .relaxed) }
    func stop() { stopped.store(true, ordering: .releasing) }
}
