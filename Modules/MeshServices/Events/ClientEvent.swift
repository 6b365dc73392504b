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
    /// A LOG_RX_DATA push whose bytes are no MeshCore packet: not logged; shown as a problem
    /// (`problemText`), counted by the uplink.
    case packetUndecodable(raw: [UInt8], reason: String)
    /// A push no service consumed (trace data, ...), for `listen`.
    case push(Push)
    /// Something went wrong in the background (a failed drain, a lost write): said, not hidden.
    case problem(String)
}

extension ClientEvent {
    /// What front ends show and log as a problem: a `problem`'s text, or why a heard packet
    /// was not logged.
    public var problemText: String? {
        switch self {
        case let .problem(text): text
        case let .packetUndecodable(_, reason): Self.undecodablePacketText(reason)
        default: nil
        }
    }

    public static func undecodablePacketText(_ reason: String) -> String {
        "The radio heard a packet that is not a MeshCore packet, so it is not logged: \(reason)."
    }
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
