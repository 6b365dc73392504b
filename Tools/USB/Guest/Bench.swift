import Foundation
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
    let figures: LinkFigures
    do {
        figures = try await workload.run(send: { try await transport.send($0) }, receive: {
            // The simulated radio also pushes (adverts, messages waiting): not echoes, skipped.
            while let frame = await inbox.next() {
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
