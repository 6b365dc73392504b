import MeshDriverABI
import MeshDriverKit
import Testing
@testable import MeshTransport

/// Two drivers that answer each frame with their own mark, so a frame shows which driver
/// carried it.
enum AlphaDriver: MeshDriver { static let name = "alpha"; static let mark: UInt8 = 0xA1 }
enum BetaDriver: MeshDriver { static let name = "beta"; static let mark: UInt8 = 0xB2 }

protocol MarkingDriver: MeshDriver { static var mark: UInt8 { get } }
extension AlphaDriver: MarkingDriver {}
extension BetaDriver: MarkingDriver {}

extension MeshDriver where Self: MarkingDriver {
    static var version: String { "1" }
    static var schemes: [String] { [name] }
    static var linkKind: meshport_link_kind { MESHPORT_LINK_PACKET }
    static var maxFrameSize: Int { 64 }
    static func discover() throws(DriverFailure) -> [DiscoveredRadio] {
        [DiscoveredRadio(url: "\(name)://one", label: name, details: "")]
    }
    static func open(url: String, events: LinkEvents) throws(DriverFailure) -> MeshLink { MarkingLink(mark: mark, events: events) }
}

final class MarkingLink: MeshLink {
    let mark: UInt8
    let events: LinkEvents
    init(mark: UInt8, events: LinkEvents) { self.mark = mark; self.events = events }
    func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(DriverFailure) {
        [mark].withUnsafeBufferPointer { events.received($0) }
    }
    func close() {}
}

@Suite struct LinkedDriversTests {
    /// A program may link several drivers in (the USB guest's benchmark runs serial:// and
    /// usb:// side by side): each descriptor must reach its own driver, not the first one built.
    @Test func twoLinkedDriversKeepTheirOwnDescriptors() async throws {
        let alpha = DriverExport.descriptor(for: AlphaDriver.self)
        let beta = DriverExport.descriptor(for: BetaDriver.self)
        #expect(alpha != beta)
        #expect(DriverExport.descriptor(for: AlphaDriver.self) == alpha, "built once")
        for (descriptor, name, mark) in [(alpha, "alpha", AlphaDriver.mark), (beta, "beta", BetaDriver.mark)] {
            let driver = try PluginLoader.linked(descriptor, path: "\(name) (linked)").get()
            #expect(driver.name == name && driver.schemes == [name])
            #expect(try driver.discover().map(\.url) == ["\(name)://one"])
            let transport = PluginTransport(url: try TransportURL("\(name)://one"), driver: driver)
            try await transport.open()
            var frames = transport.frames.makeAsyncIterator()
            try await transport.send([0x01])
            #expect(await frames.next() == [mark])
            await transport.close()
        }
    }
}
