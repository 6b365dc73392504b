/// One advertisement or scan response heard while scanning (legacy or extended report).
public struct AdvertisingReport: Equatable, Sendable {
    public var address: BDAddress
    /// A scan response (SCAN_RSP) rather than an advertisement.
    public var isScanResponse: Bool
    public var isConnectable: Bool
    /// dBm; nil when the controller does not know (127).
    public var rssi: Int8?
    public var data: AdvertisingData

    public init(address: BDAddress, isScanResponse: Bool, isConnectable: Bool, rssi: Int8?, data: AdvertisingData) {
        self.address = address
        self.isScanResponse = isScanResponse
        self.isConnectable = isConnectable
        self.rssi = rssi
        self.data = data
    }

    /// LE Advertising Report (subevent 0x02): reports one after another, as controllers send them.
    static func legacy(_ r: inout ByteReader) throws(TruncatedPDU) -> [AdvertisingReport] {
        let count = Int(try r.u8())
        var reports: [AdvertisingReport] = []
        for _ in 0..<count {
            // ADV_IND 0, ADV_DIRECT_IND 1, ADV_SCAN_IND 2, ADV_NONCONN_IND 3, SCAN_RSP 4.
            let type = try r.u8()
            let kind: BDAddress.Kind = try r.u8() & 1 == 0 ? .public : .random
            let address = BDAddress(littleEndian: try r.take(6), kind: kind)
            let data = try r.take(Int(try r.u8()))
            let rssi = Int8(bitPattern: try r.u8())
            reports.append(AdvertisingReport(address: address, isScanResponse: type == 4, isConnectable: type <= 1,
                                             rssi: rssi == 127 ? nil : rssi, data: AdvertisingData(data)))
        }
        return reports
    }

    /// LE Extended Advertising Report (subevent 0x0D).
    static func extended(_ r: inout ByteReader) throws(TruncatedPDU) -> [AdvertisingReport] {
        let count = Int(try r.u8())
        var reports: [AdvertisingReport] = []
        for _ in 0..<count {
            let type = try r.u16()  // bit 0 connectable, 3 scan response
            let kind: BDAddress.Kind = try r.u8() & 1 == 0 ? .public : .random
            let address = BDAddress(littleEndian: try r.take(6), kind: kind)
            _ = try r.take(4)  // primary PHY, secondary PHY, SID, TX power
            let rssi = Int8(bitPattern: try r.u8())
            _ = try r.take(2 + 1 + 6)  // periodic interval, direct address type and address
            let data = try r.take(Int(try r.u8()))
            reports.append(AdvertisingReport(address: address, isScanResponse: type & 0x08 != 0, isConnectable: type & 0x01 != 0,
                                             rssi: rssi == 127 ? nil : rssi, data: AdvertisingData(data)))
        }
        return reports
    }
}
