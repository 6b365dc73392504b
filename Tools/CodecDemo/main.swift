import Foundation
import MeshCodec

// Until the CLI and simulator land, `make run` decodes a recorded companion session:
// both directions go through the stream framer and the typed decoders, and every frame
// is printed with what it means.

struct SessionFile {
    var chunks: [(fromApp: Bool, bytes: [UInt8], line: Int)] = []

    init(path: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw DemoError.cannotOpen(path, error)
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0] == "app" || parts[0] == "radio" else { throw DemoError.badLine(path, index + 1, "expected 'app HEX' or 'radio HEX'") }
            guard let bytes = Hex.decode(parts[1]) else { throw DemoError.badLine(path, index + 1, "not hex") }
            chunks.append((parts[0] == "app", bytes, index + 1))
        }
    }
}

enum DemoError: Error, CustomStringConvertible {
    case cannotOpen(String, any Error)
    case badLine(String, Int, String)

    var description: String {
        switch self {
        case let .cannotOpen(p, error): "cannot read \(p): \(error.localizedDescription)"
        case let .badLine(p, n, why): "\(p):\(n): \(why)"
        }
    }
}


func summary(_ command: Command) -> String {
    switch command {
    case let .appStart(a): "app \"\(a.appName)\""
    case let .deviceQuery(v): "protocol v\(v)"
    case let .getContacts(since): since.map { "since \($0)" } ?? "all"
    case let .getChannel(i): "slot \(i)"
    case let .sendTextMessage(m): "to \(m.recipient) attempt \(m.attempt): \"\(m.text)\""
    default: ""
    }
}

func summary(_ frame: RadioFrame) -> String {
    switch frame {
    case let .response(.selfInfo(s)): "\"\(s.name)\" \(s.publicKey.prefix()) \(s.radio.frequencyMHz) MHz SF\(s.radio.spreadingFactor) BW \(s.radio.bandwidthKHz) kHz, \(s.txPower) dBm"
    case let .response(.deviceInfo(d)): "\(d.manufacturer) \(d.firmwareVersion ?? "") (protocol v\(d.protocolVersion)), \(d.maxContacts ?? 0) contacts, \(d.maxChannels ?? 0) channels"
    case let .response(.currentTime(t)): "radio clock \(t)"
    case let .response(.contactsStart(n)): "\(n) contacts on the radio"
    case let .response(.contact(c)): "\(c.type) \"\(c.name)\" \(c.publicKey.prefix()) path \(c.outPath.length) at \(c.position.latitude), \(c.position.longitude)"
    case let .response(.endOfContacts(m)): "next since = \(m)"
    case let .response(.channelInfo(c)): "slot \(c.index) \"\(c.name)\" hash 0x\(Hex.encode([c.secret.channelHash]))"
    case let .response(.sent(s)): "\(s.flood ? "flood" : "direct"), expect ACK \(s.ackCode), wait \(s.suggestedTimeoutMs) ms"
    case let .push(.sendConfirmed(ack, rtt)): "ACK \(ack) after \(rtt) ms"
    case let .response(.contactMessage(m)): "from \(m.senderPrefix) SNR \(m.snr) dB: \"\(m.text)\""
    case let .response(.channelMessage(m)):
        "channel \(m.channelIndex) from \(m.senderAndBody.sender ?? "?"): \"\(m.senderAndBody.body)\""
    case let .push(.logRxData(p)): "\(p.payload.count)-byte packet, SNR \(p.snr) dB, RSSI \(p.rssi) dBm"
    default: ""
    }
}

let path = CommandLine.arguments.dropFirst().first ?? "Tools/CodecDemo/recorded-session.txt"
do {
    let session = try SessionFile(path: path)
    var toRadio = FrameDecoder(direction: .toRadio)
    var fromRadio = FrameDecoder(direction: .fromRadio)
    print("Decoding \(path)\n")
    print("line  dir    code  frame                            meaning")
    for chunk in session.chunks {
        var decoder = chunk.fromApp ? toRadio : fromRadio
        decoder.feed(chunk.bytes) { event in
            let dir = chunk.fromApp ? "app>" : "<radio"
            let lineText = "\(chunk.line)".padding(5)
            switch event {
            case let .rejected(error):
                print("\(lineText) \(dir.padding(6)) ----  framing: \(error)")
            case let .frame(bytes):
                let code = "0x" + Hex.encode([bytes[0]])
                do {
                    if chunk.fromApp {
                        let cmd = try Command(decoding: bytes)
                        print("\(lineText) \(dir.padding(6)) \(code)  \(cmd.name.padding(32)) \(summary(cmd))")
                    } else {
                        let frame = try RadioFrame(decoding: bytes)
                        print("\(lineText) \(dir.padding(6)) \(code)  \(frame.name.padding(32)) \(summary(frame))")
                    }
                } catch {
                    print("\(lineText) \(dir.padding(6)) \(code)  undecodable: \(error)")
                }
            }
        }
        if chunk.fromApp { toRadio = decoder } else { fromRadio = decoder }
    }
    let s = fromRadio.stats
    print("\nradio -> app: \(s.frames) frames, \(s.skippedBytes) bytes outside frames, \(s.oversizeHeaders) oversize header(s) rejected")
    print("app -> radio: \(toRadio.stats.frames) frames")
} catch {
    FileHandle.standardError.write(Data("meshport codec demo: \(error)\n".utf8))
    exit(1)
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
