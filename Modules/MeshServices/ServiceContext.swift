import MeshCodec
import MeshStore

/// What every service of one connected radio works with: the session to send commands on,
/// the store and the radio's rows in it, and the hub front ends listen to.
public struct ServiceContext: Sendable {
    public let session: RadioSession
    public let store: MeshStore
    /// The radio's id in the store (from its public key).
    public let radio: RadioID
    public let selfInfo: SelfInfo
    public let events: EventHub<ClientEvent>

    public init(session: RadioSession, store: MeshStore, radio: RadioID, selfInfo: SelfInfo, events: EventHub<ClientEvent>) {
        self.session = session
        self.store = store
        self.radio = radio
        self.selfInfo = selfInfo
        self.events = events
    }

    public var radioURL: String { session.url.text }
}
