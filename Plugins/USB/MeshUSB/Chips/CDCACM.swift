/// USB CDC-ACM (class devices: nRF52840, ESP32-S3, RP2040, CH9102...). A communications
/// interface takes the class requests, a data interface carries the bulk endpoints; both are
/// claimed. DTR and RTS are raised unless the URL says otherwise, as the kernel's cdc-acm does
/// on every open: USB stacks such as TinyUSB send nothing until the host sets DTR.
public struct CDCACM: SerialChip {
    public init() {}
    public var name: String { "CDC-ACM" }
    public var endsTransfersWithZeroLengthPacket: Bool { true }

    enum Request {
        static let setLineCoding: UInt8 = 0x20
        static let setControlLineState: UInt8 = 0x22
    }

    public func interfaces(in configuration: USBConfiguration) throws(USBError) -> InterfacePlan {
        guard let data = configuration.interfaces.first(where: { $0.interfaceClass == USBInterface.dataClass && $0.bulkIn != nil && $0.bulkOut != nil }),
              let bulkIn = data.bulkIn, let bulkOut = data.bulkOut else {
            throw USBError(.unsupported, "CDC-ACM: no data interface (class 0x0A) with bulk IN and OUT endpoints")
        }
        guard let comm = configuration.interfaces.first(where: { $0.interfaceClass == USBInterface.communicationsClass && $0.subclass == USBInterface.abstractControlModel }) else {
            return InterfacePlan(claim: [data.number], control: data.number, bulkIn: bulkIn, bulkOut: bulkOut)
        }
        return InterfacePlan(claim: [comm.number, data.number], control: comm.number, bulkIn: bulkIn, bulkOut: bulkOut)
    }

    public func open(_ channel: any ControlChannel, plan: InterfacePlan, line: LineSettings) throws(USBError) {
        guard line.baud > 0, line.baud <= Int(UInt32.max) else { throw USBError(.invalidURL, "baud \(line.baud) is not a rate") }
        let rate = UInt32(line.baud)
        let index = UInt16(plan.control)
        // dwDTERate, one stop bit, no parity, 8 data bits.
        let coding: [UInt8] = [UInt8(rate & 0xFF), UInt8(rate >> 8 & 0xFF), UInt8(rate >> 16 & 0xFF), UInt8(rate >> 24), 0, 0, 8]
        let state: UInt16 = ((line.dtr ?? true) ? 0x01 : 0) | ((line.rts ?? true) ? 0x02 : 0)
        for setup in [ControlSetup.out(RequestType.classOutInterface, Request.setLineCoding, value: 0, index: index, data: coding),
                      .out(RequestType.classOutInterface, Request.setControlLineState, value: state, index: index)] {
            do {
                _ = try channel.control(setup)
            } catch where error.kind == .stalled {
                // A radio with native USB has no UART behind it, and some stacks stall class
                // requests they do not implement; cdc-acm carries on as well.
                continue
            }
        }
    }
}
