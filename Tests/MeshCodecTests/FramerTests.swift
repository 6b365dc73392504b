import Testing
@testable import MeshCodec

@Suite struct FramerTests {
    @Test func encodesHeaders() throws {
        // Docs/protocol.md §1.2: device query v3 = 3C 02 00 16 03.
        #expect(try FrameEncoder.encode([0x16, 0x03], direction: .toRadio) == bytes("3c 0200 1603"))
        #expect(try FrameEncoder.encode([0x0A], direction: .fromRadio) == bytes("3e 0100 0a"))
        #expect(throws: CodecError.self) { try FrameEncoder.encode([UInt8](repeating: 1, count: 177), direction: .fromRadio) }
        #expect(throws: CodecError.self) { try FrameEncoder.encode([UInt8](repeating: 1, count: 173), direction: .fromRadio, maxFrameLength: legacyMaxFrameLength) }
        #expect(throws: CodecError.empty) { try FrameEncoder.encode([], direction: .fromRadio) }
    }

    @Test func decodesAcrossChunks() {
        var d = FrameDecoder()
        #expect(d.feed(bytes("3e 03")) == [])
        #expect(d.isMidFrame)
        #expect(d.feed(bytes("00 0102")) == [])
        #expect(d.feed(bytes("03 3e 01 00 0a")) == [.frame([1, 2, 3]), .frame([0x0A])])
        #expect(!d.isMidFrame)
        #expect(d.stats.frames == 2)
    }

    @Test func skipsNoiseAndWrongDirection() {
        var d = FrameDecoder(direction: .fromRadio)
        // Debug text, then an app->radio header (which a radio-side stream never carries), then a frame.
        let events = d.feed(Array("boot ok\r\n".utf8) + bytes("3c 0100 05") + bytes("3e 0100 0a"))
        #expect(events == [.frame([0x0A])])
        #expect(d.stats.skippedBytes == 9 + 4)
    }

    @Test func rejectsOversizeAndResyncs() {
        var d = FrameDecoder(maxFrameLength: 176)
        // Length 177 is one above the maximum: rejected, then the next header is found.
        let events = d.feed(bytes("3e b1 00") + bytes("3e 0100 0a"))
        #expect(events == [.rejected(.oversize(length: 177, max: 176)), .frame([0x0A])])
        #expect(d.stats.oversizeHeaders == 1)
        // A rejected header whose length bytes contain the next marker.
        var f = FrameDecoder()
        #expect(f.feed(bytes("3e 00 00 3e 01 00 0a")) == [.rejected(.zeroLength), .frame([0x0A])])
        #expect(f.stats.zeroLengthHeaders == 1)
    }

    @Test func markerInsideLengthIsRescanned() {
        var d = FrameDecoder()
        // Header 3e ff 3e → length 0x3eff rejected; bytes ff and 3e are rescanned, 3e starts
        // the real frame whose length bytes follow.
        #expect(d.feed(bytes("3e ff 3e 01 00 0a")) == [.rejected(.oversize(length: 0x3EFF, max: 176)), .frame([0x0A])])
    }

    @Test func legacyMaximum() {
        var d = FrameDecoder(maxFrameLength: legacyMaxFrameLength)
        let frame = [UInt8](repeating: 0x11, count: 173)
        let events = d.feed(bytes("3e ad 00") + frame)
        #expect(events.first == .rejected(.oversize(length: 173, max: 172)))
        #expect(!events.contains(where: { if case .frame = $0 { return true }; return false }))
    }

    @Test func resetDropsPartialFrame() {
        var d = FrameDecoder()
        _ = d.feed(bytes("3e 0500 0102"))
        #expect(d.reset() == 5)
        #expect(d.feed(bytes("3e 0100 0a")) == [.frame([0x0A])])
    }

    /// Random valid frames, interleaved with garbage that carries no marker or only bogus
    /// headers (zero or oversize lengths), cut into random chunks: exactly the valid frames
    /// come out, in order.
    @Test(arguments: 0..<40)
    func propertyRandomChunkingWithGarbage(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
        for direction in [FrameDirection.fromRadio, .toRadio] {
            var stream: [UInt8] = []
            var expected: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...60, using: &rng) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0...1:
                    // Noise without the marker.
                    for _ in 0..<Int.random(in: 1...40, using: &rng) {
                        var b = UInt8.random(in: 0...255, using: &rng)
                        if b == direction.marker { b ^= 0x01 }
                        stream.append(b)
                    }
                case 2:
                    // A bogus header: zero or oversize length.
                    let len = Bool.random(using: &rng) ? 0 : Int.random(in: 177...0xFFFF, using: &rng)
                    let hi = UInt8(len >> 8), lo = UInt8(len & 0xFF)
                    // Keep the bogus length free of markers so it cannot start a plausible frame.
                    stream += [direction.marker, lo == direction.marker ? lo ^ 1 : lo, hi == direction.marker ? hi ^ 1 : hi]
                default:
                    let frame = (0..<Int.random(in: 1...176, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    expected.append(frame)
                    stream += try FrameEncoder.encode(frame, direction: direction)
                }
            }
            var d = FrameDecoder(direction: direction)
            var got: [[UInt8]] = []
            var i = 0
            while i < stream.count {
                let n = min(stream.count - i, Int.random(in: 1...64, using: &rng))
                d.feed(stream[i..<i + n]) { if case let .frame(f) = $0 { got.append(f) } }
                i += n
            }
            #expect(got == expected, "seed \(seed)")
            #expect(!d.isMidFrame)
        }
    }
}
