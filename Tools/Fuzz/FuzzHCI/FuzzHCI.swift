import MeshBLE
import MeshportFuzzSupport

/// libFuzzer entry: the input is what a Bluetooth controller sends on an H4 transport, cut
/// into chunks whose sizes the input chooses (first byte of each: size, then the bytes). Every
/// packet the framer finds must frame again to itself; events go through the event decoder;
/// ACL data goes through L2CAP reassembly per connection, and each frame to the channel that
/// reads it: signalling (whose answers must be well formed), ATT, SMP.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCI(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    var framer = H4Framer()
    var connections: [UInt16: L2CAPReassembler] = [:]
    while !input.isEmpty {
        let packets: [HCIPacket]
        do {
            packets = try framer.push(input.chunk())
        } catch {
            return 0  // out of sync: the host drops the transport
        }
        for packet in packets {
            checkFraming(packet)
            switch packet {
            case let .event(code, parameters):
                _ = try? HCIEvent(code: code, parameters: parameters)
            case let .acl(acl):
                var reassembler = connections[acl.handle] ?? L2CAPReassembler()
                if let frame = try? reassembler.push(acl) { deliver(frame.cid, frame.payload, handle: acl.handle) }
                connections[acl.handle] = reassembler
            case .command:
                break  // a controller sends none; framed and checked above
            }
        }
    }
    return 0
}

private func checkFraming(_ packet: HCIPacket) {
    var again = H4Framer()
    guard let reframed = try? again.push(packet.h4), reframed == [packet] else {
        fuzzFinding("an HCI packet does not frame back to itself: \(fuzzHex(packet.h4))")
    }
}

private func deliver(_ cid: UInt16, _ payload: [UInt8], handle: UInt16) {
    // Splitting the frame again for the controller's buffer and joining it gives it back.
    var joined = L2CAPReassembler()
    var result: (cid: UInt16, payload: [UInt8])?
    for fragment in L2CAPReassembler.fragments(handle: handle, cid: cid, payload: payload, bufferSize: 27) {
        do {
            if let frame = try joined.push(fragment) { result = frame }
        } catch {
            fuzzFinding("our own fragments of an L2CAP frame do not reassemble: \(error)")
        }
    }
    guard let result, result.cid == cid, result.payload == payload else { fuzzFinding("L2CAP fragments reassemble to another frame") }
    switch cid {
    case L2CAPChannel.signalling:
        let answer = SignallingChannel.answer(payload)
        if let reply = answer.reply {
            guard reply.count >= 4, Int(reply[2]) | Int(reply[3]) << 8 == reply.count - 4 else {
                fuzzFinding("a signalling reply with a wrong length field: \(fuzzHex(reply))")
            }
        }
    case L2CAPChannel.att:
        _ = try? ATTPDU(payload)
    case L2CAPChannel.smp:
        _ = try? SMPPDU(payload)
    default:
        break
    }
}
