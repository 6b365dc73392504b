/// WCH CH340/CH341 (vendor protocol), set up as the kernel's ch341 driver does: read the chip
/// version, probe the break register (chips that stall it also need the lower base clock),
/// SERIAL_INIT, prescaler and divisor, then line control on version 0x30 and later.
/// CH9102 and CH343 are CDC-ACM class devices and go through `CDCACM`.
public struct CH34x: SerialChip {
    public init() {}
    public var name: String { "CH34x" }

    enum Request {
        static let readVersion: UInt8 = 0x5F
        static let readRegister: UInt8 = 0x95
        static let writeRegister: UInt8 = 0x9A
        static let serialInit: UInt8 = 0xA1
        static let modemControl: UInt8 = 0xA4
    }

    enum Register {
        static let breakControl: UInt16 = 0x05
        static let prescaler: UInt16 = 0x12
        static let divisor: UInt16 = 0x13
        static let lineControl: UInt16 = 0x18
        static let lineControl2: UInt16 = 0x25
    }

    /// LCR: receiver and transmitter on, 8 data bits, no parity, one stop bit.
    static let lineControl8N1: UInt16 = 0x80 | 0x40 | 0x03
    static let dtrBit: UInt16 = 1 << 5
    static let rtsBit: UInt16 = 1 << 6

    public func open(_ channel: any ControlChannel, plan: InterfacePlan, line: LineSettings) throws(USBError) {
        let version = try channel.control(.in(RequestType.vendorInDevice, Request.readVersion, value: 0, index: 0, length: 2)).first ?? 0
        let limitedPrescaler: Bool
        do {
            _ = try channel.control(.in(RequestType.vendorInDevice, Request.readRegister, value: Register.breakControl, index: 0, length: 2))
            limitedPrescaler = false
        } catch where error.kind == .stalled {
            limitedPrescaler = true
        }
        guard let divisor = CH34xBaud.divisor(baud: line.baud, limitedPrescaler: limitedPrescaler) else {
            throw USBError(.invalidURL, "baud \(line.baud) is outside what a CH34x can do (\(CH34xBaud.minimum)-\(CH34xBaud.maximum))")
        }
        _ = try channel.control(.out(RequestType.vendorOutDevice, Request.serialInit, value: 0, index: 0))
        // Bit 7: send what arrived at once, not after a full 32-byte packet.
        _ = try channel.control(.out(RequestType.vendorOutDevice, Request.writeRegister,
                                     value: Register.divisor << 8 | Register.prescaler, index: divisor | 0x80))
        if version >= 0x30 {
            _ = try channel.control(.out(RequestType.vendorOutDevice, Request.writeRegister,
                                         value: Register.lineControl2 << 8 | Register.lineControl, index: Self.lineControl8N1))
        }
        if line.dtr != nil || line.rts != nil {
            // The lines are active low and written together; one not given is left inactive.
            var active: UInt16 = 0
            if line.dtr == true { active |= Self.dtrBit }
            if line.rts == true { active |= Self.rtsBit }
            _ = try channel.control(.out(RequestType.vendorOutDevice, Request.modemControl, value: ~active, index: 0))
        }
    }
}

/// ch341_get_divisor: a 48 MHz clock, a prescaler (ps 0-3) and a divisor below 256, encoded
/// as (256 - div) << 8 | fact << 2 | ps.
public enum CH34xBaud {
    static let clock = 48_000_000
    public static let minimum = (clock + clockDivider(0, 0) * 256 - 1) / (clockDivider(0, 0) * 256)
    public static let maximum = clock / (clockDivider(3, 0) * 2)

    static func clockDivider(_ ps: Int, _ fact: Int) -> Int { 1 << (12 - 3 * ps - fact) }
    static func minimumRate(_ ps: Int) -> Int { clock / (clockDivider(ps, 1) * 512) }

    public static func divisor(baud: Int, limitedPrescaler: Bool) -> UInt16? {
        guard (minimum...maximum).contains(baud) else { return nil }
        // The highest base clock (fact 1) whose divisor stays below 512.
        guard let ps = (0...3).reversed().first(where: { baud > minimumRate($0) }) else { return nil }
        var fact = 1
        var clockDiv = clockDivider(ps, fact)
        var div = clock / (clockDiv * baud)
        if div < 9 || div > 255 || (ps < 3 && limitedPrescaler) {
            div /= 2
            clockDiv *= 2
            fact = 0
        }
        guard div >= 2 else { return nil }
        // The next divisor when its rate is closer; scaled by 16 against rounding at low rates.
        if 16 * clock / (clockDiv * div) - 16 * baud >= 16 * baud - 16 * clock / (clockDiv * (div + 1)) {
            div += 1
        }
        // An even divisor on the lower base clock tolerates more receive error.
        if fact == 1 && div % 2 == 0 {
            div /= 2
            fact = 0
        }
        return UInt16((0x100 - div) << 8 | fact << 2 | ps)
    }
}
