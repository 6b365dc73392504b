/// A MeshCore companion radio over BLE: the Nordic UART Service, one companion frame per
/// write to RX and per notification from TX (Docs/protocol.md 1.4). Opening connects, secures the
/// link (bond or passkey pairing), exchanges the MTU (frames reach 176 bytes), discovers the
/// service and subscribes to TX.
public actor CompanionLink {
    public nonisolated let connection: LEConnection
    public nonisolated let rx: GATTCharacteristic
    public nonisolated let tx: GATTCharacteristic
    /// Frames from the radio, in order; finishes when the link goes.
    public nonisolated let frames: AsyncStream<[UInt8]>
    /// The ATT MTU agreed.
    public nonisolated let mtu: Int
    private let security: LinkSecurity
    private let withResponse: Bool

    /// Frames longer than this do not fit one notification at the MTU Meshport asks for.
    public static let maxFrame = 244

    /// Opens the radio at `peer`. A bonded link is encrypted at once; otherwise pairing waits
    /// until the radio asks for it (Security Request, or Insufficient Authentication on a write).
    public static func open(host: HCIHost, peer: BDAddress, security: LinkSecurity, timeout: Duration = .seconds(10),
                            withResponse: Bool = true) async throws -> CompanionLink {
        let connection = try await LEConnection.connect(host: host, to: peer, timeout: timeout)
        do {
            // Write Commands get no error back, so a link that uses them is secured up front.
            try await security.secure(connection, withResponse ? .ifBonded : .required)
            let gatt = connection.gatt
            let mtu = try await gatt.exchangeMTU(247)
            guard let service = try await gatt.primaryService(.nus) else {
                throw CompanionLinkError.noService(peer: peer)
            }
            let characteristics = try await gatt.characteristics(of: service)
            guard let rx = characteristics.first(where: { $0.uuid == .nusRX }), rx.canWrite || rx.canWriteWithoutResponse,
                  let tx = characteristics.first(where: { $0.uuid == .nusTX }), tx.canNotify
            else { throw CompanionLinkError.noCharacteristics(peer: peer) }
            let descriptors = try await gatt.descriptors(of: tx)
            guard let cccd = descriptors.first(where: { $0.type == .clientCharacteristicConfiguration }) else {
                throw CompanionLinkError.noCharacteristics(peer: peer)
            }
            // Subscribe before anything is written, so no answer is missed.
            let frames = AsyncStream<[UInt8]> { sink in
                let txHandle = tx.value
                let pump = Task {
                    for await n in gatt.notifications where n.handle == txHandle { sink.yield(n.value) }
                    sink.finish()
                }
                sink.onTermination = { _ in pump.cancel() }
            }
            try await gatt.write(cccd.handle, [0x01, 0x00], withResponse: true)
            // The radio may ask for security at any time: pair (or encrypt) when it does. A
            // failure here surfaces on the next write, which the radio then refuses.
            await connection.onSecurityRequest {
                Task {
                    do {
                        try await security.secure(connection, .required)
                    } catch {
                        // Reported by the write that follows.
                    }
                }
            }
            return CompanionLink(connection: connection, rx: rx, tx: tx, frames: frames, mtu: mtu,
                                 withResponse: withResponse || !rx.canWriteWithoutResponse, security: security)
        } catch {
            await connection.disconnect()
            throw error
        }
    }

    private init(connection: LEConnection, rx: GATTCharacteristic, tx: GATTCharacteristic, frames: AsyncStream<[UInt8]>, mtu: Int,
                 withResponse: Bool, security: LinkSecurity) {
        self.connection = connection
        self.rx = rx
        self.tx = tx
        self.frames = frames
        self.mtu = mtu
        self.withResponse = withResponse
        self.security = security
    }

    /// Writes one frame to RX. A radio that asks for security first gets it, then the write again.
    public func send(_ frame: [UInt8]) async throws {
        guard frame.count <= mtu - 3 else { throw GATTError.tooLong(frame.count, max: mtu - 3) }
        do {
            try await connection.gatt.write(rx.value, frame, withResponse: withResponse)
        } catch let GATTError.att(_, _, error) where error.needsSecurity {
            try await security.secure(connection, .required)
            try await connection.gatt.write(rx.value, frame, withResponse: withResponse)
        }
    }

    public func close() async {
        await connection.disconnect()
    }
}

/// The peripheral is no MeshCore companion radio.
public enum CompanionLinkError: Error, Equatable, CustomStringConvertible {
    case noService(peer: BDAddress)
    case noCharacteristics(peer: BDAddress)

    public var description: String {
        switch self {
        case let .noService(peer):
            return "\(peer) offers no Nordic UART Service: is it a MeshCore radio running BLE companion firmware?"
        case let .noCharacteristics(peer):
            return "\(peer) has a Nordic UART Service without the RX/TX characteristics a companion radio has"
        }
    }
}
