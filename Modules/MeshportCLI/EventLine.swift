import Foundation
import MeshCodec
import MeshServices
import MeshStore

/// One `ClientEvent` as a line of text or of JSON (`listen`, `chat`).
struct EventLine: Sendable {
    /// A contact's name from its key, for DMs and remote answers.
    let name: @Sendable (PublicKey) -> String?
    /// A channel's name from its slot.
    let channel: @Sendable (UInt8) -> String?

    func who(_ key: PublicKey) -> String { name(key) ?? key.prefix(4).hex }

    /// Where a message belongs: "@Alder" for a DM, "#0 Public" for a channel.
    func place(_ c: Conversation?) -> String {
        switch c {
        case let .direct(key)?: "@" + who(key)
        case let .channel(index)?: "#\(index)" + (channel(index).map { " \($0)" } ?? "")
        case nil: "?"
        }
    }

    func text(_ event: ClientEvent) -> String? {
        switch event {
        case let .connection(state): "connection: \(state)"
        case .syncProgress: nil
        case let .messageReceived(m): message(m)
        case let .roomPost(room, post): "[\(who(room))] \(post.authorPrefix.map { $0.hex } ?? "?"): \(post.text)"
        case let .datagram(d): "datagram on #\(d.channelIndex): type \(d.dataType), \(d.data.count) bytes"
        case let .messageStatus(m): "message \(m.id) to \(place(m.conversation)): \(m.status)"
        case let .contactChanged(change): contact(change)
        case let .remote(r): remote(r)
        case let .packetHeard(p): "heard: " + PacketLine(name: name).text(p)
        case let .push(p): "push: \(p.name)"
        case let .problem(text): "problem: \(text)"
        case let .packetUndecodable(_, reason): "problem: " + ClientEvent.undecodablePacketText(reason)
        }
    }

    func message(_ m: StoredMessage) -> String {
        let time = Describe.clock(m.timestamp)
        switch m.conversation {
        case let .channel(index)?: return "\(time) \(place(.channel(index))) \(m.senderName ?? "?"): \(m.text)"
        case let .direct(key)?: return "\(time) \(m.direction == .incoming ? "from" : "to") \(who(key)): \(m.text)"
        case nil: return "\(time) from \(m.senderPrefix?.hex ?? "unknown"): \(m.text)"
        }
    }

    private func contact(_ change: ContactChange) -> String {
        switch change {
        case let .updated(c): "contact updated: \(c.name) (\(c.publicKey.prefix(4).hex))"
        case let .removed(key): "contact removed: \(who(key))"
        case let .discovered(c): "contact heard (not added): \(c.name) (\(c.publicKey.prefix(4).hex)); `meshport contacts add` adds it"
        case .tableFull: "the radio's contact table is full"
        }
    }

    private func remote(_ r: RemoteEvent) -> String {
        switch r {
        case let .loggedIn(key, admin, _): "logged in to \(who(key))\(admin ? " as admin" : "")"
        case let .loginFailed(key): "login to \(who(key)) refused"
        case let .loggedOut(key): "logged out of \(who(key))"
        case let .status(key, s): "status of \(who(key)): battery \(Describe.volts(Int(s.batteryMillivolts))), up \(s.uptimeSeconds) s"
        case let .telemetry(key, records): "telemetry of \(who(key)): \(records.count) readings"
        }
    }

    /// The event as a line of the shared event schema (Docs/events.md), the JSON `/api/events`
    /// sends; nil for sync progress, which `listen` and `chat` do not show.
    func json(_ event: ClientEvent) throws -> String? {
        if case .syncProgress = event { return nil }
        return try EventJSON(EventJSON.Body(event)).line()
    }

    /// Names from the store, read when asked (contacts change while listening).
    static func reading(_ radio: ConnectedClient) -> EventLine {
        let (store, id) = (radio.store, radio.context.radio)
        return EventLine(
            name: { key in
                do { return try store.reader.contact(id, key: key)?.name } catch {
                    Output.error("cannot read contact \(key.prefix(4).hex): \(error)")
                    return nil
                }
            },
            channel: { index in
                do { return try store.reader.channels(id).first { $0.index == index && $0.kind != .empty }?.name } catch {
                    Output.error("cannot read channel \(index): \(error)")
                    return nil
                }
            })
    }
}
