/// An HCI command: opcode (OGF << 10 | OCF) and parameters (Core Vol 4 Part E 7).
public struct HCICommand: Equatable, Sendable, CustomStringConvertible {
    public let opcode: UInt16
    public let parameters: [UInt8]

    public init(opcode: UInt16, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.parameters = parameters
    }

    public var description: String { HCICommand.name(of: opcode) }

    /// Opcodes the host sends.
    public enum Opcode {
        public static let disconnect: UInt16 = 0x0406
        public static let setEventMask: UInt16 = 0x0C01
        public static let reset: UInt16 = 0x0C03
        public static let readLocalVersion: UInt16 = 0x1001
        public static let readBufferSize: UInt16 = 0x1005
        public static let readBDADDR: UInt16 = 0x1009
        public static let leSetEventMask: UInt16 = 0x2001
        public static let leReadBufferSize: UInt16 = 0x2002
        public static let leSetRandomAddress: UInt16 = 0x2005
        public static let leSetScanParameters: UInt16 = 0x200B
        public static let leSetScanEnable: UInt16 = 0x200C
        public static let leCreateConnection: UInt16 = 0x200D
        public static let leCreateConnectionCancel: UInt16 = 0x200E
        public static let leConnectionUpdate: UInt16 = 0x2013
        public static let leRand: UInt16 = 0x2018
        public static let leEnableEncryption: UInt16 = 0x2019
        public static let leRemoteConnectionParameterRequestReply: UInt16 = 0x2020
        public static let leRemoteConnectionParameterRequestNegativeReply: UInt16 = 0x2021
    }

    static func name(of opcode: UInt16) -> String {
        switch opcode {
        case Opcode.disconnect: return "HCI_Disconnect"
        case Opcode.setEventMask: return "HCI_Set_Event_Mask"
        case Opcode.reset: return "HCI_Reset"
        case Opcode.readLocalVersion: return "HCI_Read_Local_Version_Information"
        case Opcode.readBufferSize: return "HCI_Read_Buffer_Size"
        case Opcode.readBDADDR: return "HCI_Read_BD_ADDR"
        case Opcode.leSetEventMask: return "HCI_LE_Set_Event_Mask"
        case Opcode.leReadBufferSize: return "HCI_LE_Read_Buffer_Size"
        case Opcode.leSetRandomAddress: return "HCI_LE_Set_Random_Address"
        case Opcode.leSetScanParameters: return "HCI_LE_Set_Scan_Parameters"
        case Opcode.leSetScanEnable: return "HCI_LE_Set_Scan_Enable"
        case Opcode.leCreateConnection: return "HCI_LE_Create_Connection"
        case Opcode.leCreateConnectionCancel: return "HCI_LE_Create_Connection_Cancel"
        case Opcode.leConnectionUpdate: return "HCI_LE_Connection_Update"
        case Opcode.leRand: return "HCI_LE_Rand"
        case Opcode.leEnableEncryption: return "HCI_LE_Enable_Encryption"
        case Opcode.leRemoteConnectionParameterRequestReply: return "HCI_LE_Remote_Connection_Parameter_Request_Reply"
        case Opcode.leRemoteConnectionParameterRequestNegativeReply: return "HCI_LE_Remote_Connection_Parameter_Request_Negative_Reply"
        default: return "HCI command 0x" + String(opcode, radix: 16)
        }
    }
}

extension HCICommand {
    public static let reset = HCICommand(opcode: Opcode.reset)
    public static let readLocalVersion = HCICommand(opcode: Opcode.readLocalVersion)
    public static let readBufferSize = HCICommand(opcode: Opcode.readBufferSize)
    public static let readBDADDR = HCICommand(opcode: Opcode.readBDADDR)
    public static let leReadBufferSize = HCICommand(opcode: Opcode.leReadBufferSize)
    public static let leRand = HCICommand(opcode: Opcode.leRand)

    /// Events the host handles: Disconnection Complete (bit 4), Encryption Change (7),
    /// Hardware Error (15), Data Buffer Overflow (25), Encryption Key Refresh Complete (47), LE Meta (61).
    public static let setEventMask = HCICommand(opcode: Opcode.setEventMask, parameters: mask(bits: [4, 7, 15, 25, 47, 61]))

    /// LE subevents: Connection Complete (0), Advertising Report (1), Connection Update Complete (2),
    /// Remote Connection Parameter Request (5), Extended Advertising Report (12).
    public static let leSetEventMask = HCICommand(opcode: Opcode.leSetEventMask, parameters: mask(bits: [0, 1, 2, 5, 12]))

    static func mask(bits: [Int]) -> [UInt8] {
        var value: UInt64 = 0
        for bit in bits { value |= 1 << UInt64(bit) }
        var out: [UInt8] = []
        out.appendLE(value, bytes: 8)
        return out
    }

    public static func leSetRandomAddress(_ address: BDAddress) -> HCICommand {
        HCICommand(opcode: Opcode.leSetRandomAddress, parameters: address.littleEndian)
    }

    /// Active scanning (the name arrives in SCAN_RSP), interval and window in 0.625 ms units.
    public static func leSetScanParameters(active: Bool, interval: UInt16 = 0x10, window: UInt16 = 0x10, ownAddress: BDAddress.Kind) -> HCICommand {
        var p: [UInt8] = [active ? 1 : 0]
        p.appendLE(interval)
        p.appendLE(window)
        p += [ownAddress.rawValue, 0x00]
        return HCICommand(opcode: Opcode.leSetScanParameters, parameters: p)
    }

    public static func leSetScanEnable(_ enable: Bool, filterDuplicates: Bool = false) -> HCICommand {
        HCICommand(opcode: Opcode.leSetScanEnable, parameters: [enable ? 1 : 0, filterDuplicates ? 1 : 0])
    }

    public static func leCreateConnection(peer: BDAddress, ownAddress: BDAddress.Kind, parameters: ConnectionParameters) -> HCICommand {
        var p: [UInt8] = []
        p.appendLE(UInt16(0x10))  // scan interval, 10 ms
        p.appendLE(UInt16(0x10))  // scan window
        p.append(0x00)  // filter policy: the peer address below
        p.append(peer.kind.rawValue)
        p += peer.littleEndian
        p.append(ownAddress.rawValue)
        p += parameters.hciFields
        p.appendLE(UInt16(0))  // min CE length
        p.appendLE(UInt16(0))  // max CE length
        return HCICommand(opcode: Opcode.leCreateConnection, parameters: p)
    }

    public static let leCreateConnectionCancel = HCICommand(opcode: Opcode.leCreateConnectionCancel)

    public static func leConnectionUpdate(handle: UInt16, parameters: ConnectionParameters) -> HCICommand {
        HCICommand(opcode: Opcode.leConnectionUpdate, parameters: handleAndParameters(handle, parameters))
    }

    public static func leRemoteConnectionParameterRequestReply(handle: UInt16, parameters: ConnectionParameters) -> HCICommand {
        HCICommand(opcode: Opcode.leRemoteConnectionParameterRequestReply, parameters: handleAndParameters(handle, parameters))
    }

    /// Handle, interval range, latency, timeout, then minimum and maximum CE length (0: no preference).
    private static func handleAndParameters(_ handle: UInt16, _ parameters: ConnectionParameters) -> [UInt8] {
        var p: [UInt8] = []
        p.appendLE(handle)
        p += parameters.hciFields
        p.appendLE(UInt16(0))
        p.appendLE(UInt16(0))
        return p
    }

    /// LTK least significant byte first, as HCI carries it.
    public static func leEnableEncryption(handle: UInt16, random: UInt64, ediv: UInt16, ltk: [UInt8]) -> HCICommand {
        var p: [UInt8] = []
        p.appendLE(handle)
        p.appendLE(random, bytes: 8)
        p.appendLE(ediv)
        p += ltk
        return HCICommand(opcode: Opcode.leEnableEncryption, parameters: p)
    }

    public static func disconnect(handle: UInt16, reason: UInt8 = HCIStatus.remoteUserTerminated) -> HCICommand {
        var p: [UInt8] = []
        p.appendLE(handle)
        p.append(reason)
        return HCICommand(opcode: Opcode.disconnect, parameters: p)
    }
}

/// Connection interval range (1.25 ms units), peripheral latency and supervision timeout (10 ms units).
public struct ConnectionParameters: Equatable, Sendable, CustomStringConvertible {
    public var intervalMin: UInt16
    public var intervalMax: UInt16
    public var latency: UInt16
    public var supervisionTimeout: UInt16

    public init(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }

    /// 30-50 ms, no latency, 4 s supervision timeout: quick answers for a chat client.
    public static let `default` = ConnectionParameters(intervalMin: 24, intervalMax: 40, latency: 0, supervisionTimeout: 400)

    /// Core Vol 4 Part E 7.8.12 ranges, and the timeout longer than the interval allows.
    public var isValid: Bool {
        (6...3200).contains(intervalMin) && (intervalMin...3200).contains(intervalMax) && latency <= 499
            && (10...3200).contains(supervisionTimeout)
            && UInt32(supervisionTimeout) * 4 > (1 + UInt32(latency)) * UInt32(intervalMax)
    }

    var hciFields: [UInt8] {
        var p: [UInt8] = []
        p.appendLE(intervalMin)
        p.appendLE(intervalMax)
        p.appendLE(latency)
        p.appendLE(supervisionTimeout)
        return p
    }

    public var description: String {
        "interval \(Double(intervalMin) * 1.25)-\(Double(intervalMax) * 1.25) ms, latency \(latency), timeout \(Int(supervisionTimeout) * 10) ms"
    }
}
