import MeshCodec
import MeshCrypto
@testable import MeshSim
import Testing

/// The radio's Ed25519 identity: export and import, signing, signed adverts.
@Suite(.timeLimit(.minutes(1))) struct IdentityTests {
    private func radio(seed: UInt64 = 42) -> SimRadioState { DefaultMesh.state(seed: seed) }
    private func run(_ s: inout SimRadioState, _ c: Command) -> [RadioFrame] { SimHandler.handle(&s, c, now: .seconds(1)) }
    private let ok: [RadioFrame] = [.response(.ok(value: nil))]

    @Test func exportedKeyDerivesThePublicKey() throws {
        var s = radio()
        guard case let .response(.privateKey(key)) = run(&s, .exportPrivateKey).first else { Issue.record("no PRIVATE_KEY"); return }
        #expect(key.count == 64)
        #expect(try Ed25519.KeyPair(privateKey: key).publicKey == s.publicKey.bytes)
        #expect(s.publicKey.bytes[0] != 0 && s.publicKey.bytes[0] != 0xFF)
    }

    @Test func importedKeyBecomesTheIdentity() throws {
        var s = radio()
        let other = radio(seed: 43).identity
        #expect(run(&s, .importPrivateKey(other.privateKey)) == ok)
        guard case let .response(.selfInfo(info)) = run(&s, .appStart(AppStart(appName: "t"))).first else { Issue.record("no SELF_INFO"); return }
        #expect(info.publicKey.bytes == other.publicKey)
        // A key whose public key starts 0x00 is reserved.
        var reserved: Ed25519.KeyPair?
        for i in 0..<4096 where reserved == nil {
            let seed: [UInt8] = [UInt8(i & 0xFF), UInt8(i >> 8)] + [UInt8](repeating: 7, count: 30)
            let pair = try Ed25519.KeyPair(seed: seed)
            if pair.publicKey[0] == 0 { reserved = pair }
        }
        let key = try #require(reserved).privateKey
        #expect(run(&s, .importPrivateKey(key)) == [.response(.error(.illegalArgument))])
    }

    @Test func signingCollectsDataThenSigns() throws {
        var s = radio()
        #expect(run(&s, .signData([1])) == [.response(.error(.badState))], "no SIGN_START")
        #expect(run(&s, .signFinish) == [.response(.error(.badState))])
        #expect(run(&s, .signStart) == [.response(.signStart(maxLength: 8192))])
        #expect(run(&s, .signData(Array("hello ".utf8))) == ok && run(&s, .signData(Array("mesh".utf8))) == ok)
        guard case let .response(.signature(sig)) = run(&s, .signFinish).first else { Issue.record("no SIGNATURE"); return }
        #expect(Ed25519.verify(signature: sig, message: Array("hello mesh".utf8), publicKey: s.publicKey.bytes))
        #expect(run(&s, .signFinish) == [.response(.error(.badState))], "the buffer is gone after FINISH")
        _ = run(&s, .signStart)
        #expect(run(&s, .signData([UInt8](repeating: 0, count: 8192))) == ok)
        #expect(run(&s, .signData([0])) == [.response(.error(.tableFull))], "over 8 KiB")
        #expect(run(&s, .signData([])) == [.response(.error(.unsupportedCommand))], "a SIGN_DATA without data is no command the firmware knows")
        guard case let .response(.signature(full)) = run(&s, .signFinish).first else { Issue.record("no SIGNATURE after TABLE_FULL"); return }
        #expect(Ed25519.verify(signature: full, message: [UInt8](repeating: 0, count: 8192), publicKey: s.publicKey.bytes),
                "a refused chunk leaves the data collected so far")
    }

    @Test func exportedAdvertsAreSigned() throws {
        var s = radio()
        guard case let .response(.exportContact(own)) = run(&s, .exportContact(nil)).first else { Issue.record("no EXPORT_CONTACT"); return }
        let packet = try AdvertPacket(decoding: own)
        #expect(packet.publicKey == s.publicKey && packet.routeType == 1 && packet.timestamp == s.deviceTime(at: .seconds(1)))
        #expect(Ed25519.verify(signature: packet.signature, message: packet.signedMessage, publicKey: s.publicKey.bytes))
        #expect(try AdvertAppData(decoding: packet.appData).name == s.name)

        let node = s.contacts.contacts[0]
        guard case let .response(.exportContact(theirs)) = run(&s, .exportContact(node.publicKey)).first else { Issue.record("no contact export"); return }
        let p = try AdvertPacket(decoding: theirs)
        #expect(Ed25519.verify(signature: p.signature, message: p.signedMessage, publicKey: node.publicKey.bytes) && p.timestamp == node.lastAdvert)
        #expect(run(&s, .shareContact(node.publicKey)) == ok)
        #expect(run(&s, .exportContact(PublicKey([UInt8](repeating: 9, count: 32))!)) == [.response(.error(.notFound))])
    }

    @Test func importingAnAdvertAddsTheContact() throws {
        var a = radio(seed: 1), b = radio(seed: 2)
        guard case let .response(.exportContact(card)) = run(&a, .exportContact(nil)).first else { Issue.record("no card"); return }
        var tampered = card
        tampered[tampered.count - 1] ^= 1
        #expect(run(&b, .importContact(advert: tampered)) == [.response(.error(.illegalArgument))], "the signature no longer matches")
        #expect(run(&b, .importContact(advert: card)) == ok + [.push(.advert(a.publicKey))])
        #expect(b.contacts.contact(a.publicKey)?.name == a.name)
        guard case let .response(.exportContact(again)) = run(&b, .exportContact(a.publicKey)).first else { Issue.record("no re-export"); return }
        #expect(again == card, "the imported advert is kept byte for byte")
        #expect(run(&b, .importContact(advert: card)) == ok, "a replay is accepted, and ignored")
    }

    @Test func datagramsAreCheckedAndSent() {
        var s = radio()
        #expect(run(&s, .sendRawData(path: [1], payload: [1, 2, 3, 4])) == ok)
        #expect(run(&s, .sendChannelData(SendChannelData(channelIndex: 9, path: .none, dataType: 1, payload: [1]))) == [.response(.error(.notFound))])
        #expect(run(&s, .sendChannelData(SendChannelData(channelIndex: 0, path: .none, dataType: 0, payload: [1]))) == [.response(.error(.illegalArgument))])
        #expect(run(&s, .sendChannelData(SendChannelData(channelIndex: 0, path: .none, dataType: 5, payload: [UInt8](repeating: 0, count: 166)))) == [.response(.error(.tableFull))])
        #expect(run(&s, .sendChannelData(SendChannelData(channelIndex: 0, path: .none, dataType: 5, payload: [1, 2]))) == ok)
        #expect(s.stats.sent == 2)
    }
}
