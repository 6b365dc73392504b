import MeshCodec
import MeshCrypto

/// The radio's identity: key export and import, signing, adverts as signed packets
/// (EXPORT/IMPORT/SHARE_CONTACT, SEND_SELF_ADVERT).
extension SimHandler {
    /// MAX_SIGN_DATA_LEN: SIGN_START allocates this much.
    static let maxSignData = 8192

    static func identity(_ s: inout SimRadioState, _ command: Command, now: Duration) -> [RadioFrame]? {
        switch command {
        case .exportPrivateKey:
            return [.response(.privateKey(s.identity.privateKey))]
        case let .importPrivateKey(bytes):
            // A key that is not one (or whose public key is reserved) is the firmware's ILLEGAL_ARG.
            guard let pair = try? Ed25519.KeyPair(privateKey: Array(bytes.prefix(Ed25519.privateKeySize))),
                  SimIdentity.isUsable(pair.publicKey) else { return [error(.illegalArgument)] }
            s.setIdentity(pair)
            return [ok]
        case .signStart:
            s.signBuffer = []
            return [.response(.signStart(maxLength: UInt32(maxSignData)))]
        case let .signData(chunk):
            // A SIGN_DATA frame without data matches no command branch of the firmware.
            guard !chunk.isEmpty else { return [error(.unsupportedCommand)] }
            guard let buffer = s.signBuffer else { return [error(.badState)] }
            guard buffer.count + chunk.count <= maxSignData else { return [error(.tableFull)] }
            s.signBuffer = buffer + chunk
            return [ok]
        case .signFinish:
            guard let buffer = s.signBuffer else { return [error(.badState)] }
            s.signBuffer = nil
            return [.response(.signature(s.identity.sign(buffer)))]
        case .exportContact(nil):
            return [.response(.exportContact(advert: selfAdvert(s, now: now).encode()))]
        case let .exportContact(key?):
            guard s.contacts.contact(key) != nil, let advert = storedAdvert(s, key) else { return [error(.notFound)] }
            return [.response(.exportContact(advert: advert))]
        case let .shareContact(key):
            // Re-broadcast zero-hop: one packet on the air.
            guard s.contacts.contact(key) != nil, let advert = storedAdvert(s, key) else { return [error(.notFound)] }
            countSent(&s, flood: false, airtime: Airtime.milliseconds(payloadBytes: advert.count, radio: s.radio))
            do {
                aired(&s, AirPackets.advert(try AdvertPacket(decoding: advert), route: .direct, path: AirPackets.emptyPath), at: now)
            } catch {
                s.problems.append("the stored advert of \(key) does not decode: \(error)")
            }
            return [ok]
        case let .sendSelfAdvert(flood):
            let advert = selfAdvert(s, now: now)
            countSent(&s, flood: flood, airtime: Airtime.milliseconds(payloadBytes: advert.encode().count, radio: s.radio))
            // A zero-hop advert goes direct with an empty path, and nobody repeats it: only
            // radios in direct range (on a shared air, other gateways) hear it.
            if flood {
                transmitted(&s, AirPackets.advert(advert, route: .flood, path: ownFloodPath(s)), at: now)
            } else {
                aired(&s, AirPackets.advert(advert, route: .direct, path: AirPackets.emptyPath), at: now)
            }
            return [ok]
        case let .importContact(bytes):
            return importContact(&s, bytes, now: now)
        default:
            return nil
        }
    }

    /// The radio's own advert, signed; with its position unless the location policy is none
    /// (0): the companion firmware shares it for every other value.
    static func selfAdvert(_ s: SimRadioState, now: Duration) -> AdvertPacket {
        let app = AdvertAppData(type: .chat, position: s.prefs.advertLocationPolicy != 0 ? s.position : nil, name: s.name)
        return signedAdvert(key: s.publicKey, pair: s.identity, app: app, timestamp: s.deviceTime(at: now))
    }

    /// What EXPORT_CONTACT returns: the advert as heard (imported ones byte for byte; a
    /// simulated node's as it signs it). A contact added by the app alone has none.
    static func storedAdvert(_ s: SimRadioState, _ key: PublicKey) -> [UInt8]? {
        if let raw = s.importedAdverts[key] { return raw }
        guard let node = s.nodes[key], node.identity != nil, let contact = s.contacts.contact(key) else { return nil }
        return advertPacket(node, timestamp: contact.lastAdvert).encode()
    }

    static func signedAdvert(key: PublicKey, pair: Ed25519.KeyPair, app: AdvertAppData, timestamp: UInt32) -> AdvertPacket {
        var packet = AdvertPacket(publicKey: key, timestamp: timestamp, signature: [UInt8](repeating: 0, count: 64), appData: fitted(app))
        packet.signature = pair.sign(packet.signedMessage)
        return packet
    }

    /// App-data with the name cut to fit its 32 bytes (31 bytes, 23 with a position), as the firmware cuts it.
    static func fitted(_ app: AdvertAppData) -> [UInt8] {
        var app = app
        let room = AdvertAppData.maxSize - 1 - (app.position == nil ? 0 : 8)
        app.name = app.name.map { String(decoding: FixedString.truncatedUTF8($0, maxBytes: room), as: UTF8.self) }
        do {
            return try app.encode()
        } catch {
            preconditionFailure("app-data cut to size always encodes: \(error)")
        }
    }

    /// IMPORT_CONTACT: a valid, correctly signed advert with a name is processed as if heard
    /// (zero-hop) and answered OK, whatever the auto-add rules then do with it.
    static func importContact(_ s: inout SimRadioState, _ bytes: [UInt8], now: Duration) -> [RadioFrame] {
        // Anything that is not a signed advert with a name is the firmware's ILLEGAL_ARG.
        guard let packet = try? AdvertPacket(decoding: bytes), let app = try? AdvertAppData(decoding: packet.appData), let name = app.name,
              Ed25519.verify(signature: packet.signature, message: packet.signedMessage, publicKey: packet.publicKey.bytes) else {
            return [error(.illegalArgument)]
        }
        s.importedAdverts[packet.publicKey] = bytes
        let heard = HeardAdvertInfo(publicKey: packet.publicKey, type: app.type, name: name, position: app.position ?? .zero,
                                    timestamp: packet.timestamp, hops: 0, path: Path(length: PathLength(raw: 0), bytes: []))
        return [ok] + advertHeard(&s, heard, at: now)
    }
}
