import Synchronization

/// What Paho reports from its own threads, as values for the client actor.
enum PahoEvent: Sendable {
    case connected
    case connectFailed(code: Int32, detail: String?)
    case connectionLost(cause: String?)
    case published(sequence: UInt64, epoch: Int)
    case publishFailed(sequence: UInt64, epoch: Int)
    case subscribed(filter: String)
    case subscribeRefused(filter: String)
    case message(MQTTMessage)
}

/// The context Paho's C callbacks get: they turn what happened into a `PahoEvent` on one
/// stream, and copy every byte they are handed before returning.
final class PahoBridge: Sendable {
    let events: AsyncStream<PahoEvent>
    private let continuation: AsyncStream<PahoEvent>.Continuation
    /// What OpenSSL said during the current connection attempt (Paho reports every failed
    /// attempt alike; this tells a TLS failure from an unreachable broker).
    let tlsError = Mutex<String?>(nil)
    /// Takes incoming messages on Paho's thread instead of the event stream (`MQTTClientOptions.receive`).
    let receive: (@Sendable (MQTTMessage) -> Void)?

    init(receive: (@Sendable (MQTTMessage) -> Void)? = nil) {
        self.receive = receive
        (events, continuation) = AsyncStream.makeStream(of: PahoEvent.self)
    }

    func emit(_ event: PahoEvent) { continuation.yield(event) }
    func finish() { continuation.finish() }

    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ context: UnsafeMutableRawPointer?) -> PahoBridge? {
        guard let context else { return nil }
        return Unmanaged<PahoBridge>.fromOpaque(context).takeUnretainedValue()
    }
}

/// One call's context: which bridge to tell, and what the call was about. Retained for Paho,
/// released by whichever of onSuccess and onFailure it calls (it calls one of them, also for
/// calls still pending when the client is destroyed).
final class PahoTicket: Sendable {
    enum Purpose: Sendable {
        case publish(sequence: UInt64, epoch: Int)
        case subscribe(filter: String)
    }

    let bridge: PahoBridge
    let purpose: Purpose

    init(bridge: PahoBridge, purpose: Purpose) {
        self.bridge = bridge
        self.purpose = purpose
    }

    var retainedContext: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    static func take(_ context: UnsafeMutableRawPointer?) -> PahoTicket? {
        guard let context else { return nil }
        return Unmanaged<PahoTicket>.fromOpaque(context).takeRetainedValue()
    }
}
