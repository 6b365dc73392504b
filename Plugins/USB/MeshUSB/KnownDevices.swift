/// USB serial devices MeshCore boards use, by VID:PID. Any other device with a CDC-ACM
/// communications interface is taken as CDC-ACM too; Tools/USB/99-meshport-usb.rules grants
/// access to each of these (a test keeps the two in step).
public struct KnownDevice: Sendable, Equatable {
    public enum Family: String, Sendable { case ftdi, cp210x, ch34x, cdcACM = "cdc-acm" }

    public let vendorID: UInt16
    public let productID: UInt16
    public let family: Family
    public let label: String

    public static let all: [KnownDevice] = [
        KnownDevice(vendorID: 0x0403, productID: 0x6001, family: .ftdi, label: "FTDI FT232R / FT232BM"),
        KnownDevice(vendorID: 0x0403, productID: 0x6010, family: .ftdi, label: "FTDI FT2232"),
        KnownDevice(vendorID: 0x0403, productID: 0x6011, family: .ftdi, label: "FTDI FT4232H"),
        KnownDevice(vendorID: 0x0403, productID: 0x6014, family: .ftdi, label: "FTDI FT232H"),
        KnownDevice(vendorID: 0x0403, productID: 0x6015, family: .ftdi, label: "FTDI FT-X (FT230X, FT231X)"),
        KnownDevice(vendorID: 0x10C4, productID: 0xEA60, family: .cp210x, label: "CP2102/CP2104 (Heltec, LilyGO T-Beam)"),
        KnownDevice(vendorID: 0x10C4, productID: 0xEA70, family: .cp210x, label: "CP2105"),
        KnownDevice(vendorID: 0x1A86, productID: 0x7523, family: .ch34x, label: "CH340 (LilyGO, ESP32 boards)"),
        KnownDevice(vendorID: 0x1A86, productID: 0x7522, family: .ch34x, label: "CH340K"),
        KnownDevice(vendorID: 0x1A86, productID: 0x5523, family: .ch34x, label: "CH341"),
        KnownDevice(vendorID: 0x1A86, productID: 0x55D4, family: .cdcACM, label: "CH9102 (LilyGO T-Beam, T-Deck)"),
        KnownDevice(vendorID: 0x1A86, productID: 0x55D3, family: .cdcACM, label: "CH343"),
        KnownDevice(vendorID: 0x303A, productID: 0x1001, family: .cdcACM, label: "ESP32-S3/C3 USB Serial/JTAG"),
        KnownDevice(vendorID: 0x239A, productID: 0x8029, family: .cdcACM, label: "nRF52840 (RAK4631, Adafruit bootloader)"),
        KnownDevice(vendorID: 0x2886, productID: 0x8044, family: .cdcACM, label: "Seeed XIAO nRF52840"),
        KnownDevice(vendorID: 0x2E8A, productID: 0x000A, family: .cdcACM, label: "RP2040 (Pico SDK)"),
    ]

    public static func find(vendorID: UInt16, productID: UInt16) -> KnownDevice? {
        all.first { $0.vendorID == vendorID && $0.productID == productID }
    }
}

/// "0403:6001"
public func usbID(_ vendorID: UInt16, _ productID: UInt16) -> String {
    func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 4 - s.count) + s
    }
    return "\(hex4(vendorID)):\(hex4(productID))"
}
