import MeshCodec

/// The simulated mesh lives in the radio's clock. A default mesh or scenario is built around
/// the radio's boot time (2024, as an RTC-less board starts); when an app sets the clock, the
/// mesh's past moves with it, so what was heard an hour before boot still reads an hour ago,
/// not years. A real radio never meets this: its mesh's nodes keep real time all along
/// (Docs/meshsim.md, "Where MeshSim differs").
extension SimRadioState {
    /// Moves every time the mesh gave the radio forward by `seconds`: adverts heard and
    /// contacts changed, messages waiting in the queue, room posts and the advert-path cache.
    mutating func moveMeshTimes(forwardBy seconds: UInt32) {
        guard seconds > 0 else { return }
        func moved(_ t: UInt32) -> UInt32 { t == 0 ? 0 : t &+ seconds }
        for key in contacts.contacts.map(\.publicKey) {
            _ = contacts.update(key) { c in
                c.lastAdvert = moved(c.lastAdvert)
                c.lastModified = moved(c.lastModified)
            }
        }
        offlineQueue.updateEach { message in
            switch message {
            case var .contactMessage(m):
                m.senderTimestamp = moved(m.senderTimestamp)
                message = .contactMessage(m)
            case var .channelMessage(m):
                m.senderTimestamp = moved(m.senderTimestamp)
                message = .channelMessage(m)
            default:
                break
            }
        }
        for (key, node) in nodes {
            guard var server = node.server else { continue }
            server.posts = server.posts.map { RoomPost(author: $0.author, text: $0.text, postedAt: moved($0.postedAt)) }
            nodes[key]?.server = server
        }
        roomSyncSince = roomSyncSince.mapValues(moved)
        advertPaths = advertPaths.map { HeardAdvert(prefix: $0.prefix, heardAt: moved($0.heardAt), path: $0.path) }
    }
}
