import MeshCodec

/// Adverts heard from the mesh (`onAdvertRecv`): contacts auto-added or offered to the app,
/// the table's overwrite and full rules, and the recently-heard advert paths.
extension SimHandler {
    static func advertArrived(_ s: inout SimRadioState, from key: PublicKey, timestamp: UInt32, at: Duration) -> [RadioFrame] {
        guard let node = s.nodes[key] else { return [] }
        s.stats.received += 1
        s.stats.receivedFlood += 1
        let air = arrives(&s, AirPackets.advert(advertPacket(node, timestamp: timestamp), route: .flood, path: arrivalPath(node)),
                          lastHop: lastHop(s, node), at: at)
        return air + advertHeard(&s, HeardAdvertInfo(publicKey: key, type: node.type, name: node.name, position: node.position, timestamp: timestamp,
                                               hops: node.hops, path: node.returnPath), at: at)
    }

    /// The advert `node` sends: signed, or with a zero signature when the scenario gave only
    /// its public key (a radio would refuse it; the log shows it all the same).
    static func advertPacket(_ node: SimNode, timestamp: UInt32) -> AdvertPacket {
        let app = AdvertAppData(type: node.type, position: node.position.isZero ? nil : node.position, name: node.name)
        guard let pair = node.identity else {
            return AdvertPacket(publicKey: node.publicKey, timestamp: timestamp, signature: [UInt8](repeating: 0, count: 64), appData: fitted(app))
        }
        return signedAdvert(key: node.publicKey, pair: pair, app: app, timestamp: timestamp)
    }

    static func advertHeard(_ s: inout SimRadioState, _ advert: HeardAdvertInfo, at: Duration) -> [RadioFrame] {
        let key = advert.publicKey, timestamp = advert.timestamp
        let now = s.deviceTime(at: at)
        var record = Contact(publicKey: key, type: advert.type, name: advert.name, lastAdvert: timestamp, position: advert.position, lastModified: now)
        var out: [RadioFrame] = []
        if let known = s.contacts.contact(key) {
            guard timestamp > known.lastAdvert else { return [] }   // a replayed advert
            record.flags = known.flags
            record.outPath = known.outPath
        } else {
            let maxHops = Int(s.prefs.autoAdd.maxHops ?? 0)
            guard s.prefs.autoAdds(advert.type), maxHops == 0 || advert.hops < maxHops else {
                rememberPath(&s, advert, at: now)
                return [.push(.newAdvert(record))]
            }
            if s.contacts.isFull {
                guard s.prefs.overwritesOldest, let oldest = s.contacts.oldestEvictable() else {
                    rememberPath(&s, advert, at: now)
                    return [.push(.newAdvert(record)), .push(.contactsFull)]
                }
                s.contacts.remove(oldest)
                out.append(.push(.contactDeleted(oldest)))
            }
        }
        s.contacts.upsert(record)
        rememberPath(&s, advert, at: now)
        // Added or updated alike: the app fetches the record by key.
        return out + [.push(.advert(key))]
    }

    /// The 16-entry cache GET_ADVERT_PATH reads: newest per 7-byte key prefix, oldest evicted.
    static func rememberPath(_ s: inout SimRadioState, _ advert: HeardAdvertInfo, at now: UInt32) {
        let prefix = Array(advert.publicKey.bytes.prefix(7))
        s.advertPaths.removeAll { $0.prefix == prefix }
        if s.advertPaths.count >= 16, let oldest = s.advertPaths.indices.min(by: { s.advertPaths[$0].heardAt < s.advertPaths[$1].heardAt }) {
            s.advertPaths.remove(at: oldest)
        }
        s.advertPaths.append(HeardAdvert(prefix: prefix, heardAt: now, path: advert.path))
    }

    static func advertPath(_ s: SimRadioState, _ key: PublicKey) -> [RadioFrame] {
        guard let entry = s.advertPaths.first(where: { key.bytes.starts(with: $0.prefix) }) else { return [error(.notFound)] }
        return [.response(.advertPath(AdvertPath(heardAt: entry.heardAt, path: entry.path)))]
    }
}

/// What an advert tells: who, what, where, when, and the path it came by.
struct HeardAdvertInfo {
    var publicKey: PublicKey
    var type: NodeType
    var name: String
    var position: Coordinates
    var timestamp: UInt32
    var hops: Int
    var path: Path
}

/// One entry of the recently-heard adverts cache.
struct HeardAdvert: Hashable, Sendable {
    var prefix: [UInt8]
    var heardAt: UInt32
    var path: Path
}
