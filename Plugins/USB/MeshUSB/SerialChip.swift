/// A USB serial chip family: how it is set up over control transfers and what its bulk IN
/// packets carry. One small file per family under Chips/, as Linux's usb-serial drivers are.
public protocol SerialChip: Sendable {
    /// "FTDI FT232R", "CP210x", ...
    var name: String { get }
    /// Interfaces to claim and the one whose endpoints carry the data.
    func interfaces(in configuration: USBConfiguration) throws(USBError) -> InterfacePlan
    /// Sets the line up after the interfaces are claimed.
    func open(_ channel: any ControlChannel, plan: InterfacePlan, line: LineSettings) throws(USBError)
    /// Best effort before release: the device may already be gone.
    func close(_ channel: any ControlChannel, plan: InterfacePlan)
    /// The payload of one bulk IN transfer of `bytes`, read as packets of `maxPacket`.
    func payload(_ bytes: UnsafeBufferPointer<UInt8>, maxPacket: Int, into out: inout [UInt8])
    /// Whether a bulk OUT transfer that fills its last packet needs a zero-length packet to end it.
    var endsTransfersWithZeroLengthPacket: Bool { get }
}

extension SerialChip {
    public func close(_ channel: any ControlChannel, plan: InterfacePlan) {}

    public func payload(_ bytes: UnsafeBufferPointer<UInt8>, maxPacket: Int, into out: inout [UInt8]) {
        out.append(contentsOf: bytes)
    }

    public var endsTransfersWithZeroLengthPacket: Bool { false }

    /// Vendor chips: the first interface with a bulk IN and a bulk OUT endpoint.
    public func interfaces(in configuration: USBConfiguration) throws(USBError) -> InterfacePlan {
        guard let data = configuration.interfaces.first(where: { $0.bulkIn != nil && $0.bulkOut != nil }),
              let bulkIn = data.bulkIn, let bulkOut = data.bulkOut else {
            throw USBError(.unsupported, "\(name): no interface with bulk IN and OUT endpoints")
        }
        return InterfacePlan(claim: [data.number], control: data.number, bulkIn: bulkIn, bulkOut: bulkOut)
    }
}
