/// Baud divisors as ftdi_sio computes them: a 14-bit integer part and a 3-bit fraction in
/// eighths, encoded through the chip's own fraction table. FT232BM/R/X divide 3 MHz
/// (48 MHz / 16); the Hi-Speed chips divide 12 MHz (120 MHz / 10) with bit 17 set.
public enum FTDIBaud {
    static let fractionCode: [UInt32] = [0, 3, 2, 4, 1, 5, 6, 7]

    public static func divisor(baud: Int, variant: FTDI.Variant) throws(USBError) -> UInt32 {
        switch variant {
        case .ft2232h, .ft4232h, .ft232h:
            if (1200...12_000_000).contains(baud) { return hiSpeed(baud) }
            if (183...1199).contains(baud) { return fullSpeed(baud) }
            throw USBError(.invalidURL, "baud \(baud) is outside what an FTDI \(variant.rawValue) can do (183-12000000)")
        default:
            guard (183...3_000_000).contains(baud) else {
                throw USBError(.invalidURL, "baud \(baud) is outside what an FTDI \(variant.rawValue) can do (183-3000000)")
            }
            return fullSpeed(baud)
        }
    }

    /// ftdi_232bm_baud_base_to_divisor with a 48 MHz base.
    static func fullSpeed(_ baud: Int) -> UInt32 {
        encode(eighths: roundedDivision(48_000_000, 2 * baud))
    }

    /// ftdi_2232h_baud_base_to_divisor with a 120 MHz base: 10 samples per bit, not 16.
    static func hiSpeed(_ baud: Int) -> UInt32 {
        encode(eighths: roundedDivision(8 * 120_000_000, 10 * baud)) | 0x0002_0000
    }

    private static func encode(eighths: Int) -> UInt32 {
        var divisor = UInt32(eighths >> 3) | fractionCode[eighths & 7] << 14
        // The chips read 1 as 0 (the fastest rate) and 1.5 as 1.
        if divisor == 1 { divisor = 0 } else if divisor == 0x4001 { divisor = 1 }
        return divisor
    }

    /// The kernel's DIV_ROUND_CLOSEST for positive values.
    private static func roundedDivision(_ a: Int, _ b: Int) -> Int { (a + b / 2) / b }
}
