import Foundation
import MeshCodec

/// What initialization needs from the session's owner, kept so a reconnect initializes the
/// same way: the contacts watermark, this machine's clock, and where results go.
public struct SessionSetup: Sendable {
    /// The watermark of the last contact sync of the radio that answered APP_START (nil:
    /// fetch all contacts).
    public var contactsSince: @Sendable (SelfInfo) async throws -> UInt32?
    /// This machine's clock, in epoch seconds.
    public var now: @Sendable () -> UInt32
    /// Each drained message, before the next SYNC_NEXT_MESSAGE is sent: a message the owner
    /// fails to keep stops the drain, and stays queued on the radio.
    public var received: @Sendable (Response) async throws -> Void
    /// What each initialization learned (self info, clock, contacts, channels), before the
    /// message drain starts and before the session says it is ready.
    public var initialized: @Sendable (RadioSnapshot) async throws -> Void

    public init(contactsSince: @escaping @Sendable (SelfInfo) async throws -> UInt32? = { _ in nil },
                now: @escaping @Sendable () -> UInt32 = { UInt32(Date().timeIntervalSince1970) },
                received: @escaping @Sendable (Response) async throws -> Void = { _ in },
                initialized: @escaping @Sendable (RadioSnapshot) async throws -> Void = { _ in }) {
        self.contactsSince = contactsSince
        self.now = now
        self.received = received
        self.initialized = initialized
    }
}
