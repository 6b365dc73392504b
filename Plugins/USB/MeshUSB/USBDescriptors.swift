/// A configuration descriptor as values (copied out of libusb), so interface and endpoint
/// choice is tested without a device.
public struct USBConfiguration: Sendable, Equatable {
    public var interfaces: [USBInterface]
    public init(interfaces: [USBInterface]) { self.interfaces = interfaces }
}

public struct USBInterface: Sendable, Equatable {
    public var number: Int
    public var interfaceClass: UInt8
    public var subclass: UInt8
    public var endpoints: [USBEndpoint]

    public init(number: Int, interfaceClass: UInt8, subclass: UInt8 = 0, endpoints: [USBEndpoint]) {
        self.number = number
        self.interfaceClass = interfaceClass
        self.subclass = subclass
        self.endpoints = endpoints
    }

    public var bulkIn: USBEndpoint? { endpoints.first { $0.isBulk && $0.isIn } }
    public var bulkOut: USBEndpoint? { endpoints.first { $0.isBulk && !$0.isIn } }

    public static let communicationsClass: UInt8 = 0x02
    public static let dataClass: UInt8 = 0x0A
    public static let abstractControlModel: UInt8 = 0x02
}

public struct USBEndpoint: Sendable, Equatable {
    public var address: UInt8
    public var attributes: UInt8
    public var maxPacketSize: Int

    public init(address: UInt8, attributes: UInt8 = 0x02, maxPacketSize: Int) {
        self.address = address
        self.attributes = attributes
        self.maxPacketSize = maxPacketSize
    }

    public var isIn: Bool { address & 0x80 != 0 }
    public var isBulk: Bool { attributes & 0x03 == 0x02 }
}

/// What a link claims and moves data on.
public struct InterfacePlan: Sendable, Equatable {
    /// Claimed in this order, released in reverse.
    public var claim: [Int]
    /// The interface class requests go to (wIndex).
    public var control: Int
    public var bulkIn: USBEndpoint
    public var bulkOut: USBEndpoint

    public init(claim: [Int], control: Int, bulkIn: USBEndpoint, bulkOut: USBEndpoint) {
        self.claim = claim
        self.control = control
        self.bulkIn = bulkIn
        self.bulkOut = bulkOut
    }
}
