import Testing
@testable import MeshCodec

@Suite struct SHA256Tests {
    // FIPS 180-4 / NIST example vectors.
    @Test func knownAnswers() {
        #expect(Hex.encode(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Hex.encode(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Hex.encode(SHA256.hash([UInt8](repeating: 0x61, count: 1000)))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func incrementalEqualsOneShot() {
        let data = (0..<300).map { UInt8($0 & 0xFF) }
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 299] {
            var s = SHA256()
            s.update(data[..<split])
            s.update(data[split...])
            #expect(s.finalize() == SHA256.hash(data))
        }
    }
}

@Suite struct HexTests {
    @Test func encodesAnyCollectionOfBytesAndDecodesBack() {
        let all = (0...255).map(UInt8.init)
        let text = Hex.encode(all)
        #expect(text.count == 512 && text.hasPrefix("000102") && text.hasSuffix("fdfeff"))
        #expect(Hex.decode(text) == all && Hex.decode(text.uppercased()) == all)
        #expect(Hex.encode(all[16..<18]) == "1011", "a slice")
        #expect(Hex.encode(all.reversed().prefix(2)) == "fffe", "a collection without contiguous storage")
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.decode("abc") == nil && Hex.decode("zz") == nil)
    }
}

@Suite struct ChannelSecretTests {
    @Test func publicChannel() {
        #expect(ChannelSecret.publicChannel.hex == "8b3387e9c5cdea6ac9e5edbaa115cd72")
        #expect(ChannelSecret.publicChannel.channelHash == 0x11)   // Docs/protocol.md §7.6
    }

    @Test func hashtag() {
        #expect(ChannelSecret.hashtag("#test").hex == "9cd8fcf22a47333b591d96a2b848b73f")
        #expect(ChannelSecret.hashtag("test") == ChannelSecret.hashtag("#test"))
        #expect(ChannelSecret.hashtag("#test").channelHash == 0xD9)
    }

    @Test func passphraseAndHex() {
        #expect(ChannelSecret.passphrase("correct horse").hex == "4104d36f8da2c254349f85836793ebe0")
        #expect(ChannelSecret(hex: "8B3387E9C5CDEA6AC9E5EDBAA115CD72") == .publicChannel)
        #expect(ChannelSecret(hex: "8b33") == nil)
        #expect(ChannelSecret.empty.isEmpty)
        #expect(!"\(ChannelSecret.publicChannel)".contains("8b3387"))   // never printed
    }

    @Test func regionScope() {
        #expect(FloodScope(region: "#test").key == ChannelSecret.hashtag("#test").bytes)
        #expect(FloodScope(region: "test").name == "test")
    }
}

@Suite struct AckCodeTests {
    // Expected values from Python's hashlib over the §7.4 layout.
    @Test func expectedAck() {
        #expect(AckCode.expected(timestamp: 1_700_000_000, attempt: 0, text: Array("hello".utf8), sender: key).hex == "d9995416")
        #expect(AckCode.expected(timestamp: 1_700_000_000, attempt: 1, text: Array("hello".utf8), sender: key).hex == "034eeb15")
        // Attempts differ only in the low 2 bits: attempt 4 hashes like attempt 0.
        #expect(AckCode.expected(timestamp: 1_700_000_000, attempt: 4, text: Array("hello".utf8), sender: key).hex == "d9995416")
    }

    @Test func bytesAndValue() {
        let a = AckCode(bytes: [0x01, 0x02, 0x03, 0x04])!
        #expect(a.value == 0x04030201 && a.bytes == [1, 2, 3, 4])
        #expect(AckCode(bytes: [1, 2]) == nil)
    }
}

@Suite struct PathTests {
    @Test func encodedLengths() {
        #expect(PathLength(raw: 0x05).hopCount == 5 && PathLength(raw: 0x05).hashSize == 1 && PathLength(raw: 0x05).byteCount == 5)
        #expect(PathLength(raw: 0x43).hopCount == 3 && PathLength(raw: 0x43).hashSize == 2 && PathLength(raw: 0x43).byteCount == 6)
        #expect(PathLength(raw: 0x95).hashSize == 3 && PathLength(raw: 0x95).byteCount == 63)
        #expect(!PathLength(raw: 0xC1).isValid)                  // mode 3 reserved
        #expect(!PathLength(raw: 0x7F).isValid)                  // 63 hops × 2 bytes > 64
        #expect(PathLength.none.isNone && PathLength.none.byteCount == 0)
        #expect(PathLength(hops: 21, hashSize: 3)?.raw == 0x95)
        #expect(PathLength(hops: 22, hashSize: 3) == nil)
        #expect(Path(hops: [[1, 2], [3, 4]], hashSize: 2)?.bytes == [1, 2, 3, 4])
    }
}

@Suite struct FixedStringTests {
    @Test func truncatesOnCharacterBoundary() {
        // 31 bytes available: ten 3-byte characters fit (30), the eleventh does not.
        let name = String(repeating: "€", count: 11)
        #expect(FixedString.encode(name, width: 32).prefix(while: { $0 != 0 }).count == 30)
        #expect(FixedString.decode(FixedString.encode(name, width: 32)) == String(repeating: "€", count: 10))
        #expect(FixedString.decode([0x41, 0, 0x42]) == "A")
    }
}

@Suite struct CayenneLPPTests {
    @Test func decodesMeshCoreTelemetry() throws {
        // ch1 voltage 4.10 V, ch1 temperature -5.3 °C, ch2 humidity 45.5 %, ch1 GPS.
        let lpp = bytes("01 74 019a" + "01 67 ffcb" + "02 68 5b" + "01 88 0806de 00c2d1 0003e8")
        let records = try CayenneLPP.decode(lpp)
        #expect(records.count == 4)
        #expect(records[0].type == .voltage && records[0].values == [4.10])
        #expect(records[1].type == .temperature && records[1].values == [-5.3])
        #expect(records[2].values == [45.5])
        #expect(records[3].type == .gps)
        #expect(zip(records[3].values, [52.6046, 4.9873, 10.0]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(try CayenneLPP.encode(records) == lpp)
    }

    @Test func errors() {
        #expect(throws: CodecError.self) { try CayenneLPP.decode(bytes("01 63 00")) }   // unknown type 99
        #expect(throws: CodecError.self) { try CayenneLPP.decode(bytes("01 74 01")) }   // cut value
        #expect(throws: CodecError.self) { try CayenneLPP.encode([LPPRecord(channel: 1, type: .humidity, values: [300])]) }
    }
}

@Suite struct AdvertTests {
    @Test func appData() throws {
        let data = AdvertAppData(type: .repeater, position: Coordinates(latitudeE6: 1_000_000, longitudeE6: -2_000_000), name: "Hilltop")
        let raw = try data.encode()
        #expect(raw == bytes("92" + le32(1_000_000) + le32(UInt32(bitPattern: -2_000_000)) + text("Hilltop")))
        #expect(try AdvertAppData(decoding: raw) == data)
        #expect(throws: CodecError.self) { try AdvertAppData(type: .chat, name: String(repeating: "n", count: 32)).encode() }
    }

    /// Fuzz finding (Tools/Fuzz/corpus/air/regression-*): invalid UTF-8 in a name became
    /// replacement characters, three bytes each, and the app-data no longer encoded.
    @Test func appDataNameDropsInvalidUTF8() throws {
        let raw = [0xA5] + [UInt8](repeating: 0xA5, count: 20) + Array(" Node".utf8)
        let data = try AdvertAppData(decoding: raw)
        #expect(data.name == " Node" && data.feature1 == 0xA5A5)
        #expect(try AdvertAppData(decoding: data.encode()) == data)
    }

    @Test func packetAndURI() throws {
        let app = try AdvertAppData(type: .chat, name: "Ann").encode()
        let packet = AdvertPacket(publicKey: key, timestamp: 1234, signature: [UInt8](repeating: 0xEE, count: 64), appData: app)
        let raw = packet.encode()
        #expect(raw == bytes("11 00" + keyHex + le32(1234) + String(repeating: "ee", count: 64) + "81" + text("Ann")))
        #expect(try AdvertPacket(decoding: raw) == packet)
        #expect(try AdvertPacket(uri: packet.uri) == packet)
        #expect(packet.uri.hasPrefix("meshcore://11"))
        #expect(throws: CodecError.self) { try AdvertPacket(uri: "meshcore://zz") }
        #expect(throws: CodecError.self) { try AdvertPacket(decoding: bytes("15 00")) }   // not an advert
        // Transport flood route: 4 transport-code bytes before the path.
        let scoped = AdvertPacket(header: 0x10, transportCodes: [1, 2, 3, 4], publicKey: key, timestamp: 1, signature: [UInt8](repeating: 0, count: 64), appData: app)
        #expect(try AdvertPacket(decoding: scoped.encode()) == scoped)
    }
}

@Suite struct RobustnessTests {
    /// Every prefix of every golden-ish frame and random bytes decode or throw; none trap.
    @Test func decodersNeverTrap() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let n = Int.random(in: 0...180, using: &rng)
            var frame = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if !frame.isEmpty, Bool.random(using: &rng) {
                // Bias towards known codes so decoders get past the first byte.
                let known = CommandCode.allCases.map(\.rawValue) + ResponseCode.allCases.map(\.rawValue) + PushCode.allCases.map(\.rawValue)
                frame[0] = known.randomElement(using: &rng)!
            }
            _ = try? RadioFrame(decoding: frame)
            _ = try? Command(decoding: frame)
            _ = try? CayenneLPP.decode(frame)
            _ = try? AdvertPacket(decoding: frame)
        }
    }

    /// A decoded frame re-encodes to a frame that decodes to the same value.
    @Test func decodedFramesReencodeStably() throws {
        var rng = SplitMix64(seed: 7)
        var checked = 0, refused = 0
        for _ in 0..<20_000 {
            var frame = (0..<Int.random(in: 1...176, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            frame[0] = (ResponseCode.allCases.map(\.rawValue) + PushCode.allCases.map(\.rawValue)).randomElement(using: &rng)!
            guard let value = try? RadioFrame(decoding: frame) else { continue }
            #expect(try RadioFrame(decoding: value.encode()) == value)
            checked += 1
        }
        for _ in 0..<20_000 {
            var frame = (0..<Int.random(in: 1...176, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            frame[0] = CommandCode.allCases.randomElement(using: &rng)!.rawValue
            guard let value = try? Command(decoding: frame) else { continue }
            do {
                #expect(try Command(decoding: value.encode()) == value)
                checked += 1
            } catch CodecError.unencodable {
                // The radio takes frames the app never builds (e.g. over-long texts, which
                // the firmware then refuses with TABLE_FULL); the encoder refuses them.
                refused += 1
            }
        }
        #expect(checked > 1000)
        #expect(refused < checked / 10)
    }
}
