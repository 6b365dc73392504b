import Foundation
import MeshCodec
import MeshConformanceCommands
import MeshConformance
import MeshDriverABI
import MeshDriverKit
import MeshTransport
import MeshUSB
import Synchronization

extension DeviceChecks {
    /// One send call carrying many frames, more than a pooled write transfer holds (1,024
    /// bytes: on CDC-ACM's 512-byte packets it also ends with a zero-length packet): every
    /// frame must come back, in order. `PluginTransport` sends one frame per call, so this goes
    /// through the driver's C entry points, as another host program may.
    static func largeWrite(_ url: String) async -> ConformanceCheck {
        let driver = DriverExport.descriptor(for: USBDriver.self).pointee
        let name = "one write of 1,024 bytes"
        let start = ContinuousClock.now
        let frames = (0..<16).map { i in [ConformanceCommand.echo] + Array(repeating: UInt8(0x30 + i), count: 60) }
        let bytes: [UInt8]
        do {
            bytes = try frames.flatMap { try FrameEncoder.encode($0, direction: .toRadio, maxFrameLength: Int(driver.max_frame_size)) }
        } catch {
            return check(name, start, .failed, "cannot encode the frames: \(error)")
        }
        let echoes = Echoes(maxFrameLength: Int(driver.max_frame_size))
        var callbacks = meshport_callbacks(context: Unmanaged.passUnretained(echoes).toOpaque(), received: { context, bytes, length in
            guard let context, let bytes else { return }
            Unmanaged<Echoes>.fromOpaque(context).takeUnretainedValue().feed(UnsafeBufferPointer(start: bytes, count: length))
        }, link_lost: nil)
        var error = meshport_error()
        guard let handle = url.withCString({ driver.open($0, &callbacks, &error) }) else {
            return check(name, start, .failed, "open failed: \(error.text)")
        }
        defer { withExtendedLifetime(echoes) { driver.close(handle) } }
        let rc = bytes.withUnsafeBufferPointer { driver.send(handle, $0.baseAddress, $0.count, &error) }
        guard rc == 0 else { return check(name, start, .failed, "send failed: \(error.text)") }
        let deadline = ContinuousClock.now + .seconds(5)
        while echoes.received.count < frames.count && ContinuousClock.now < deadline {
            do { try await Task.sleep(for: .milliseconds(10)) } catch { break }
        }
        let received = echoes.received
        guard received == frames else {
            return check(name, start, .failed, "\(received.count) of \(frames.count) frames came back\(received.count == frames.count ? ", not as sent" : "")")
        }
        return check(name, start, .passed, "\(frames.count) frames in one send call echoed in order")
    }
}

/// Echo frames decoded from what a link delivers; the simulator's pushes are left out.
private final class Echoes: Sendable {
    private let state: Mutex<(decoder: FrameDecoder, frames: [[UInt8]])>

    init(maxFrameLength: Int) {
        state = Mutex((FrameDecoder(direction: .fromRadio, maxFrameLength: maxFrameLength), []))
    }

    var received: [[UInt8]] { state.withLock { $0.frames } }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        state.withLock { s in
            for event in s.decoder.feed(bytes) {
                if case let .frame(f) = event, f.first.map({ $0 < 0x80 }) ?? false { s.frames.append(f) }
            }
        }
    }
}
