import MeshCodec
import MeshStore

/// What front ends see of a radio, in order: one stream for chat screens, `listen` and the
/// web UI alike.
public enum ClientEvent: Hashable, Sendable {
    /// The session's state: connecting, ready, reconnecting, ...
    case connection(RadioSession.State)
    case syncProgress(SyncStep)
    /// A message the radio handed over, as stored (DM, channel message or room post).
    case messageReceived(StoredMessage)
    /// A post a room server passed on to us (signed text: `authorPrefix` names the author).
    case roomPost(room: PublicKey, ContactMessage)
    /// A channel datagram (CHANNEL_DATA_RECV): an application payload, not chat.
    case datagram(ChannelDataMessage)
    /// An outgoing message moved on: sent, delivered, failed, or heard repeated.
    case messageStatus(StoredMessage)
    case contactChanged(ContactChange)
    /// A remote node answered: a login, a status, telemetry.
    case remote(RemoteEvent)
    /// A packet the radio heard on air (LOG_RX_DATA), as the packet log keeps it (not yet stored: no id).
    case packetHeard(HeardPacket)
    /// A push no service consumed (trace data, ...), for `listen`.
    case push(Push)
    /// Something went wrong in the background (a failed drain, a lost write): said, not hidden.
    case problem(String)
}

public enum ContactChange: Hashable, Sendable {
    /// Added or updated on the radio (sync, advert, path update, edit).
    case updated(Contact)
    case removed(PublicKey)
    /// Heard but not added (auto-add off): NEW_ADVERT, kept for `contacts add`.
    case discovered(Contact)
    /// The radio's table is full (CONTACTS_FULL).
    case tableFull
}

public enum RemoteEvent: Hashable, Sendable {
    case loggedIn(PublicKey, isAdmin: Bool, permission: UInt8)
    case loginFailed(PublicKey)
    case loggedOut(PublicKey)
    case status(PublicKey, RepeaterStatus)
    case telemetry(PublicKey, [LPPRecord])
}
