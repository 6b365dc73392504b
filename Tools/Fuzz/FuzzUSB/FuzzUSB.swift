import MeshUSB
import MeshportFuzzSupport

/// libFuzzer entry: the input is a USB serial device as the host sees it: which chip family
/// it is (and FTDI's bcdDevice), its configuration descriptor, the line settings of the URL,
/// then the chip's answer to each control transfer (data, a stall or a failure) and one bulk
/// IN transfer. Interface choice, setup, close and payload extraction must not trap: bad
/// descriptors and answers end in a `USBError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUSB(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let chip: any SerialChip
    let family = input.byte()
    let configuration = readConfiguration(&input)
    switch family % 4 {
    case 0: chip = FTDI(bcdDevice: input.u16(), interfaceCount: configuration.interfaces.count, interfaceNumber: Int(input.byte() % 4))
    case 1: chip = CP210x()
    case 2: chip = CH34x()
    default: chip = CDCACM()
    }
    let flags = input.byte()
    let line = LineSettings(baud: Int(input.u32()), dtr: flags & 1 == 0 ? nil : flags & 2 != 0, rts: flags & 4 == 0 ? nil : flags & 8 != 0,
                            latencyMs: Int(input.byte()))
    let plan: InterfacePlan
    do {
        plan = try chip.interfaces(in: configuration)
    } catch {
        return 0  // a device without the endpoints it needs is refused
    }
    guard plan.claim.contains(plan.control), plan.bulkIn.isIn, plan.bulkIn.isBulk, !plan.bulkOut.isIn, plan.bulkOut.isBulk else {
        fuzzFinding("\(chip.name) chose an inconsistent plan \(plan) from \(configuration)")
    }
    let channel = FuzzedChannel(answers: input.take(Int(input.byte() % 64)))
    do {
        try chip.open(channel, plan: plan, line: line)
    } catch {
        // A typed error is the right end for a bad rate or a chip that stalls or goes away.
    }
    chip.close(channel, plan: plan)
    // As the bulk reader reads: whole packets of the endpoint's size (at least 1 byte).
    let transfer = input.rest()
    var out: [UInt8] = []
    transfer.withUnsafeBufferPointer { chip.payload($0, maxPacket: max(1, plan.bulkIn.maxPacketSize), into: &out) }
    guard out.count <= transfer.count else { fuzzFinding("\(chip.name) made \(out.count) payload bytes of \(transfer.count)") }
    return 0
}

private func readConfiguration(_ input: inout FuzzInput) -> USBConfiguration {
    let interfaces = (0..<Int(input.byte() % 5)).map { _ in
        let number = Int(input.byte()), interfaceClass = input.byte(), subclass = input.byte()
        let endpoints = (0..<Int(input.byte() % 5)).map { _ in
            USBEndpoint(address: input.byte(), attributes: input.byte(), maxPacketSize: Int(input.u16() & 0x7FF))
        }
        return USBInterface(number: number, interfaceClass: interfaceClass, subclass: subclass, endpoints: endpoints)
    }
    return USBConfiguration(interfaces: interfaces)
}

/// The chip's side of the control pipe: each transfer takes the next answer byte (0: stall,
/// 1: unplugged, else that many data bytes of an IN answer, cycled from the answers).
private final class FuzzedChannel: ControlChannel {
    private let answers: [UInt8]
    private var next = 0

    init(answers: [UInt8]) { self.answers = answers }

    func control(_ setup: ControlSetup) throws(USBError) -> [UInt8] {
        guard next < answers.count else { return [] }
        let answer = answers[next]
        next += 1
        switch answer {
        case 0: throw USBError(.stalled, "stalled")
        case 1: throw USBError(.unplugged, "unplugged")
        default:
            guard setup.isIn else { return [] }
            // Up to the length asked for, as a real transfer returns.
            return (0..<min(Int(answer % 8), setup.inLength)).map { UInt8(truncatingIfNeeded: answer &* UInt8($0 + 1)) }
        }
    }
}
