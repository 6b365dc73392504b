import Foundation
import MeshBLE
import MeshDriverABI
import MeshDriverKit

/// One open `ble://` link behind the C ABI. Sends are queued in order to one writer task (the
/// host may call `send` from any thread and must not block); received frames and the loss go
/// out through one delivery task, so callbacks never overlap and none follows `close`.
final class BLELink: MeshLink, @unchecked Sendable {
    private let link: CompanionLink
    private let host: HCIHost
    private let spec: String
    private let events: LinkEvents
    private let outbox: AsyncStream<[UInt8]>.Continuation
    private let lock = NSLock()
    private var closing = false
    private var lostReported = false
    private var writer: Task<Void, Never>?
    private var delivery: Task<Void, Never>?

    init(link: CompanionLink, host: HCIHost, spec: String, events: LinkEvents) {
        self.link = link
        self.host = host
        self.spec = spec
        self.events = events
        let (frames, outbox) = AsyncStream.makeStream(of: [UInt8].self)
        self.outbox = outbox
        let (inbox, inboxSink) = AsyncStream.makeStream(of: Delivery.self)
        writer = Task { [link] in
            for await frame in frames {
                do {
                    try await link.send(frame)
                } catch {
                    inboxSink.yield(.lost("writing to \(link.connection.peer) failed: \(error)"))
                    return
                }
            }
        }
        let reader = Task { [link] in
            for await frame in link.frames { inboxSink.yield(.frame(frame)) }
            let loss = await link.connection.waitForLoss()
            inboxSink.yield(.lost(BLELink.describe(loss, peer: link.connection.peer)))
        }
        delivery = Task { [weak self] in
            for await item in inbox {
                guard let self else { return }
                if !self.deliver(item) { break }
            }
            reader.cancel()
        }
    }

    private enum Delivery: Sendable {
        case frame([UInt8])
        case lost(String)
    }

    /// Calls the host back unless closing; false once the link is lost.
    private func deliver(_ item: Delivery) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if closing || lostReported { return false }
        switch item {
        case let .frame(f):
            f.withUnsafeBufferPointer { events.received($0) }
            return true
        case let .lost(reason):
            lostReported = true
            events.linkLost(DriverFailure(MESHPORT_ERR_LINK_LOST, reason))
            return false
        }
    }

    static func describe(_ loss: HCIError, peer: BDAddress) -> String {
        if case let .disconnected(_, reason) = loss {
            switch reason {
            case HCIStatus.connectionTimeout: return "\(peer) went out of range or powered off (supervision timeout)"
            case HCIStatus.remoteUserTerminated, 0x15: return "\(peer) ended the connection (\(HCIStatus.describe(reason)))"
            case HCIStatus.micFailure: return "\(peer) dropped the link: its bond no longer matches (MIC failure); run meshport ble forget \(peer) and pair again"
            default: break
            }
        }
        return "\(peer): \(loss)"
    }

    func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(DriverFailure) {
        lock.lock()
        let gone = closing || lostReported
        lock.unlock()
        if gone { throw DriverFailure(MESHPORT_ERR_LINK_LOST, "the BLE link to \(link.connection.peer) is gone") }
        guard bytes.count <= CompanionLink.maxFrame else {
            throw DriverFailure(MESHPORT_ERR_OTHER, "a frame of \(bytes.count) bytes exceeds BLE's \(CompanionLink.maxFrame)")
        }
        outbox.yield(Array(bytes))
    }

    func close() {
        lock.lock()
        closing = true
        lock.unlock()
        outbox.finish()
        let (link, host, spec, writer, delivery) = (link, host, spec, writer, delivery)
        do {
            try blocking {
                writer?.cancel()
                await link.close()
                delivery?.cancel()
                await delivery?.value
                await HostPool.shared.release(spec, host)
            }
        } catch {
            // Closing cannot fail in a way the host could act on.
        }
    }
}
