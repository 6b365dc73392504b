import Foundation
import MeshJSON
import MeshServices
import Testing

@testable import MeshportServer

/// The timeline page written by hand (MessagePageBytes) is the text the API's JSONEncoder writes.
@Suite struct MessagePageJSONTests {
    /// Messages decoded from their JSON, every optional value present in some and absent in others.
    static func messages() throws -> [MessageJSON] {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) } + [0x7F], as: UTF8.self)
        let texts = ["hello", "say \"hi\" \\ back/slash", controls, "café ☕️ 🛰 \u{2028}\u{2029}", "", "Field 3: 55 m/s"]
        let numbers: [Double?] = [nil, 7.25, -0.25, 8, 0, -0.0, 1e-7, -128 / 4]
        var messages: [MessageJSON] = []
        for index in 0..<48 {
            var object: [String: Any] = [
                "id": Int64(index) * 1_000_003, "direction": index % 2 == 0 ? "in" : "out", "status": ["received", "sent", "delivered", "failed"][index % 4],
                "text": texts[index % texts.count], "timestamp": "2026-11-28T06:\(10 + index % 50):00.125Z",
                "senderTimestamp": UInt32.max - UInt32(index), "attempt": index % 4, "heardRepeats": index % 5,
            ]
            switch index % 3 {
            case 0: object["conversation"] = ["kind": "channel", "channel": index % 8]
            case 1: object["conversation"] = ["kind": "direct", "key": String(repeating: "ab", count: 32)]
            default: break
            }
            if index % 4 == 1 { object["sender"] = texts[(index + 1) % texts.count] }
            if index % 5 != 0 { object["senderPrefix"] = "a1b2c3d4e5f6" }
            if index % 6 == 2 { object["roundTripMs"] = index * 137 }
            if let snr = numbers[index % numbers.count] { object["snr"] = snr }
            if index % 7 != 3 { object["hops"] = index % 4 }
            if index % 9 == 4 { object["failureReason"] = "no ACK after \(index) attempts: \"out of reach\"" }
            let data = try JSONSerialization.data(withJSONObject: object)
            messages.append(try JSONDecoder().decode(MessageJSON.self, from: data))
        }
        return messages
    }

    @Test("texts with quotes, backslashes, slashes, control characters and other scripts; every value present or absent")
    func sameTextAsJSONEncoder() throws {
        let all = try Self.messages()
        for page in [MessagePageJSON(messages: all, older: "MTc2NDMxMDQwMDEyNS40Mg"), MessagePageJSON(messages: all, older: nil),
                     MessagePageJSON(messages: [], older: nil), MessagePageJSON(messages: Array(all.prefix(1)), older: "x/y")] {
            let written = String(decoding: try #require(MessagePageBytes.bytes(page)), as: UTF8.self)
            #expect(written == String(decoding: try Served.makeEncoder().encode(page), as: UTF8.self))
        }
    }

    @Test("integers at every width and at the limits read as JSONEncoder writes them")
    func integersAsJSONEncoderWritesThem() throws {
        let signed: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 1_000_003, -987_654_321, Int64(Int32.max), Int64(Int32.min), .max, .min, .max - 1, .min + 1]
        let unsigned: [UInt64] = [0, 9, 10, UInt64(UInt32.max), UInt64(Int64.max), UInt64(Int64.max) + 1, .max]
        let encoder = Served.makeEncoder()
        func check(_ value: some BinaryInteger & Encodable) throws {
            var json = JSONBytes(capacity: 24)
            json.integer(value)
            #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: try encoder.encode(value), as: UTF8.self))
        }
        for value in signed { try check(value) }
        for value in unsigned { try check(value) }
        var json = JSONBytes(capacity: 8)
        json.integer(UInt8.max)
        json.raw(",")
        json.integer(Int8.min)
        #expect(String(decoding: json.bytes, as: UTF8.self) == "255,-128")
    }

    @Test("a number JSON cannot hold leaves the page to JSONEncoder, which refuses it")
    func notFiniteIsRefused() throws {
        var message = try #require(try Self.messages().first)
        for value in [Double.nan, .infinity, -.infinity] {
            message.snr = value
            let page = MessagePageJSON(messages: [message], older: nil)
            #expect(MessagePageBytes.bytes(page) == nil)
            #expect(throws: EncodingError.self) { try Served.makeEncoder().encode(page) }
        }
    }
}
