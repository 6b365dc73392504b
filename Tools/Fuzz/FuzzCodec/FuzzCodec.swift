import MeshCodec

/// libFuzzer entry: the input is a byte stream as it would arrive from a link. It goes
/// through the framer (in chunks whose sizes come from the first byte), every frame through
/// both decoders, and every decoded value back through its encoder, which must reproduce a
/// frame that decodes to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCodec(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = input.first else { return 0 }
    let chunk = Int(first % 32) + 1
    for direction in [FrameDirection.fromRadio, .toRadio] {
        var decoder = FrameDecoder(direction: direction, maxFrameLength: first & 0x80 == 0 ? defaultMaxFrameLength : legacyMaxFrameLength)
        var i = 1
        while i < input.count {
            let end = min(input.count, i + chunk)
            decoder.feed(input[i..<end]) { event in
                guard case let .frame(frame) = event else { return }
                check(frame)
            }
            i = end
        }
    }
    // The raw input as a single frame as well, so decoders see inputs the framer would cut.
    check(Array(input.dropFirst()))
    return 0
}

private func check(_ frame: [UInt8]) {
    if let value = try? RadioFrame(decoding: frame) {
        do {
            guard try RadioFrame(decoding: value.encode()) == value else { fatalError("radio frame round trip differs: \(Hex.encode(frame))") }
        } catch {
            fatalError("re-encoding a decoded radio frame failed: \(error) for \(Hex.encode(frame))")
        }
    }
    if let command = try? Command(decoding: frame) {
        do {
            guard try Command(decoding: command.encode()) == command else { fatalError("command round trip differs: \(Hex.encode(frame))") }
        } catch CodecError.unencodable {
            // Frames the radio accepts but the app never builds (over-long texts).
        } catch {
            fatalError("re-encoding a decoded command failed: \(error) for \(Hex.encode(frame))")
        }
    }
    if case let .push(.telemetryResponse(_, lpp))? = try? RadioFrame(decoding: frame), let records = try? CayenneLPP.decode(lpp) {
        guard (try? CayenneLPP.decode(CayenneLPP.encode(records))) != nil else { fatalError("LPP re-encode failed: \(Hex.encode(lpp))") }
    }
    if case let .response(.exportContact(advert))? = try? RadioFrame(decoding: frame), let packet = try? AdvertPacket(decoding: advert) {
        guard (try? AdvertPacket(decoding: packet.encode())) == packet else { fatalError("advert round trip differs: \(Hex.encode(advert))") }
    }
    // LOG_RX_DATA carries raw air packets: each must encode back to its own bytes.
    if case let .push(.logRxData(log))? = try? RadioFrame(decoding: frame), let packet = try? AirPacket(decoding: log.payload) {
        guard (try? packet.encode()) == log.payload else { fatalError("air packet round trip differs: \(Hex.encode(log.payload))") }
        if packet.payloadType == .path, let returned = try? ReturnedPath(decoding: packet.payload) {
            guard (try? ReturnedPath(decoding: returned.bytes)) == returned else { fatalError("returned path round trip differs") }
        }
    }
}
