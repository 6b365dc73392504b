import Foundation
import Testing

@testable import MeshRegion
@testable import MeshportServer

/// The nodes page written by hand (RegionNodesJSON) is the text the API's JSONEncoder writes.
@Suite struct RegionNodesJSONTests {
    static func node(_ index: Int, name: String?, latitude: Double?, longitude: Double?, best: Bool, snr: Double?) -> RegionNodeJSON {
        let seen = Date(timeIntervalSince1970: 1_764_236_400.125 + Double(index) * 61.001)
        let key = [UInt8](repeating: UInt8(index), count: 32)
        return RegionNodeJSON(RegionNode(key: key, name: name, kind: index % 2 == 0 ? "repeater" : "chat", latitude: latitude, longitude: longitude,
                                         firstSeen: seen.addingTimeInterval(-86_400), lastSeen: seen,
                                         best: best ? RegionNode.Best(observer: [UInt8](repeating: 0xA0, count: 32), observerName: name.map { "gw \($0)" },
                                                                      snr: snr, lastHeard: seen) : nil))
    }

    static func encoded(_ nodes: [RegionNodeJSON], older: RegionCursor?) throws -> String {
        String(decoding: try Served.makeEncoder().encode(RegionPageJSON(key: "nodes", items: nodes, older: older)), as: UTF8.self)
    }

    static func written(_ nodes: [RegionNodeJSON], older: RegionCursor?) -> String? {
        RegionNodesJSON.bytes(nodes, older: older).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("names with quotes, backslashes, slashes, control characters and other scripts; every value present or absent")
    func sameTextAsJSONEncoder() throws {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) } + [0x7F], as: UTF8.self)
        let names: [String?] = [nil, "Hilltop", "say \"hi\" \\ back/slash", controls, "café ☕️ 🛰 \u{2028}\u{2029}", ""]
        let numbers: [Double?] = [nil, 52.1, -0.25, 8, 0, -0.0, 1e-7, 123_456_789.123, Double(Float(7.3)), 1e21, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        var nodes: [RegionNodeJSON] = []
        for (index, number) in numbers.enumerated() {
            for (offset, name) in names.enumerated() {
                nodes.append(Self.node(index * names.count + offset, name: name, latitude: number, longitude: numbers[(index + offset) % numbers.count],
                                       best: offset % 3 != 0, snr: numbers[(index + 2 * offset) % numbers.count]))
            }
        }
        let cursor = RegionCursor(time: Date(timeIntervalSince1970: 1_764_236_400.5), key: [UInt8](repeating: 7, count: 32))
        for (page, older) in [(nodes, cursor), (nodes, nil), ([], nil), (Array(nodes.prefix(1)), cursor)] as [([RegionNodeJSON], RegionCursor?)] {
            let written = try #require(Self.written(page, older: older))
            #expect(written == (try Self.encoded(page, older: older)))
        }
    }

    @Test("a number JSON cannot hold leaves the page to JSONEncoder, which refuses it")
    func notFiniteIsRefused() {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(Self.written([Self.node(1, name: "x", latitude: value, longitude: 4, best: true, snr: 1)], older: nil) == nil)
            #expect(Self.written([Self.node(1, name: "x", latitude: 52, longitude: 4, best: true, snr: value)], older: nil) == nil)
            #expect(throws: EncodingError.self) { try Self.encoded([Self.node(1, name: "x", latitude: value, longitude: 4, best: true, snr: 1)], older: nil) }
        }
    }
}
