import MeshCodec

/// Adverts heard from the mesh (`onAdvertRecv`): contacts auto-added or offered to the app,
/// the table's overwrite and full rules, and the recently-heard advert paths.
extension SimHandler {
    static func advertArrived(_ s: inout SimRadioState, from key: PublicKey, timestamp: UInt32, at: Duration) -> [RadioFrame] {
        guard let node = s.nodes[key] else { return [] }
        s.stats.received += 1
        s.stats.receivedFlood += 1
        let now = s.deviceTime(at: at)
        var record = Contact(publicKey: key, type: node.type, name: node.name, lastAdvert: timestamp, position: node.position, lastModified: now)
        var out: [RadioFrame] = []
        if let known = s.contacts.contact(key) {
            guard timestamp > known.lastAdvert else { return [] }   // a replayed advert
            record.flags = known.flags
            record.outPath = known.outPath
        } else {
            let maxHops = Int(s.prefs.autoAdd.maxHops ?? 0)
            guard s.prefs.autoAdds(node.type), maxHops == 0 || node.hops < maxHops else {
                rememberPath(&s, node, at: now)
                return [.push(.newAdvert(record))]
            }
            if s.contacts.isFull {
                guard s.prefs.overwritesOldest, let oldest = s.contacts.oldestEvictable() else {
                    rememberPath(&s, node, at: now)
                    return [.push(.newAdvert(record)), .push(.contactsFull)]
                }
                s.contacts.remove(oldest)
                out.append(.push(.contactDeleted(oldest)))
            }
        }
        s.contacts.upsert(record)
        rememberPath(&s, node, at: now)
        // Added or updated alike: the app fetches the record by key.
        return out + [.push(.advert(key))]
    }

    /// The 16-entry cache GET_ADVERT_PATH reads: newest per 7-byte key prefix, oldest evicted.
    static func rememberPath(_ s: inout SimRadioState, _ node: SimNode, at now: UInt32) {
        let prefix = Array(node.publicKey.bytes.prefix(7))
        s.advertPaths.removeAll { $0.prefix == prefix }
        if s.advertPaths.count >= 16, let oldest = s.advertPaths.indices.min(by: { s.advertPaths[$0].heardAt < s.advertPaths[$1].heardAt }) {
            s.advertPaths.remove(at: oldest)
        }
        s.advertPaths.append(HeardAdvert(prefix: prefix, heardAt: now, path: node.returnPath))
    }

    static func advertPath(_ s: SimRadioState, _ key: PublicKey) -> [RadioFrame] {
        guard let entry = s.advertPaths.first(where: { key.bytes.starts(with: $0.prefix) }) else { return [error(.notFound)] }
        return [.response(.advertPath(AdvertPath(heardAt: entry.heardAt, path: entry.path)))]
    }
}

/// One entry of the recently-heard adverts cache.
struct HeardAdvert: Hashable, Sendable {
    var prefix: [UInt8]
    var heardAt: UInt32
    var path: Path
}
