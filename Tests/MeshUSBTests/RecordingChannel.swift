@testable import MeshUSB

/// The seam the chips configure through: records every control transfer and answers IN
/// requests from a script, or stalls where a real chip (or the emulated gadget) would.
final class RecordingChannel: ControlChannel {
    private(set) var sent: [ControlSetup] = []
    private let answer: (ControlSetup) throws(USBError) -> [UInt8]

    init(answer: @escaping (ControlSetup) throws(USBError) -> [UInt8] = { _ in [] }) {
        self.answer = answer
    }

    func control(_ setup: ControlSetup) throws(USBError) -> [UInt8] {
        sent.append(setup)
        return try answer(setup)
    }

    static let stall = USBError(.stalled, "stalled")
}

/// A full-speed vendor chip's single interface: bulk IN 0x81, OUT 0x02.
let vendorInterface = USBConfiguration(interfaces: [
    USBInterface(number: 0, interfaceClass: 0xFF, endpoints: [USBEndpoint(address: 0x81, maxPacketSize: 64), USBEndpoint(address: 0x02, maxPacketSize: 64)]),
])
