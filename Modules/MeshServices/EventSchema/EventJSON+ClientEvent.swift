import MeshCodec

extension EventJSON.Body {
    /// The wire form of a radio's event.
    public init(_ event: ClientEvent) {
        switch event {
        case let .connection(state): self = .connection(state: "\(state)")
        case let .syncProgress(step): self = .sync(SyncJSON(step))
        case let .messageReceived(m): self = .message(MessageJSON(m))
        case let .messageStatus(m): self = .messageStatus(MessageJSON(m))
        case let .contactChanged(change):
            switch change {
            case let .updated(contact): self = .contact(.updated(ContactJSON(contact)))
            case let .removed(key): self = .contact(.removed(key: key.hex))
            case let .discovered(contact): self = .contact(.discovered(ContactJSON(contact, onRadio: false)))
            case .tableFull: self = .contact(.tableFull)
            }
        case let .remote(r):
            switch r {
            case let .loggedIn(key, isAdmin, _): self = .remote(.loggedIn(key: key.hex, admin: isAdmin))
            case let .loginFailed(key): self = .remote(.loginFailed(key: key.hex))
            case let .loggedOut(key): self = .remote(.loggedOut(key: key.hex))
            case let .status(key, s): self = .remote(.status(key: key.hex, RepeaterStatusJSON(s)))
            case let .telemetry(key, records): self = .remote(.telemetry(key: key.hex, records.map { ReadingJSON($0) }))
            }
        case let .roomPost(room, post): self = .roomPost(room: room.hex, author: post.authorPrefix?.hex, text: post.text)
        case let .datagram(d): self = .datagram(channel: Int(d.channelIndex), dataType: Int(d.dataType), data: Hex.encode(d.data))
        case let .packetHeard(p): self = .packet(PacketJSON(p))
        case let .push(p): self = .push(p.name)
        case let .problem(text): self = .problem(text)
        case let .packetUndecodable(_, reason): self = .problem(ClientEvent.undecodablePacketText(reason))
        }
    }
}
