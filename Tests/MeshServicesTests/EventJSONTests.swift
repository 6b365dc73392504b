import Foundation
import MeshCodec
import MeshServices
import Testing

/// The event schema's wire form (Docs/events.md): every type decodes to a value that encodes
/// back to the same line, and what it does not know is refused by name.
@Suite struct EventJSONTests {
    static let key = String(repeating: "ab", count: 32)

    static let lines = [
        #"{"radios":[{"id":"0","ready":true,"state":"ready","url":"tcp://127.0.0.1:5000"}],"type":"hello"}"#,
        #"{"radio":"1","state":"reconnecting","type":"connection"}"#,
        #"{"sync":{"received":3,"step":"contacts","total":20},"type":"sync"}"#,
        #"{"message":{"attempt":0,"conversation":{"channel":0,"kind":"channel"},"direction":"in","heardRepeats":0,"id":7,"sender":"Pine","#
            + #""senderTimestamp":1764236400,"status":"received","text":"morning all","timestamp":"2026-11-27T09:40:00.000Z"},"type":"message"}"#,
        #"{"message":{"attempt":2,"conversation":{"key":"\#(key)","kind":"direct"},"direction":"out","heardRepeats":1,"id":8,"roundTripMs":2400,"#
            + #""senderTimestamp":1764236401,"status":"delivered","text":"on my way","timestamp":"2026-11-27T09:40:01.000Z"},"type":"messageStatus"}"#,
        #"{"change":"updated","contact":{"favourite":true,"key":"\#(key)","lastAdvert":"2026-11-27T09:00:00.000Z","latitude":51.5,"longitude":-0.25,"#
            + #""messages":0,"name":"Pine","onRadio":true,"path":{"bytes":"a1b2","flood":false,"hashSize":1,"hops":2},"type":"companion","unread":0},"type":"contact"}"#,
        #"{"change":"discovered","contact":{"favourite":false,"key":"\#(key)","messages":0,"name":"Faraway","onRadio":false,"path":{"flood":true},"#
            + #""type":"repeater","unread":0},"type":"contact"}"#,
        #"{"change":"removed","key":"\#(key)","type":"contact"}"#,
        #"{"change":"tableFull","type":"contact"}"#,
        #"{"admin":true,"key":"\#(key)","remote":"loggedIn","type":"remote"}"#,
        #"{"key":"\#(key)","remote":"loginFailed","type":"remote"}"#,
        #"{"key":"\#(key)","remote":"loggedOut","type":"remote"}"#,
        #"{"key":"\#(key)","remote":"status","status":{"airtimeSeconds":20,"batteryMillivolts":4100,"lastRSSI":-92,"lastSNR":6.5,"noiseFloor":-116,"#
            + #""packetsReceived":1200,"packetsSent":800,"queueLength":0,"receivedDirect":300,"receivedFlood":900,"rxAirtimeSeconds":30,"sentDirect":300,"#
            + #""sentFlood":500,"uptimeSeconds":86400},"type":"remote"}"#,
        #"{"key":"\#(key)","readings":[{"channel":1,"type":"temperature","values":[21.5]}],"remote":"telemetry","type":"remote"}"#,
        #"{"author":"a1b2c3d4","room":"\#(key)","text":"hello room","type":"roomPost"}"#,
        #"{"channel":1,"data":"0102ff","dataType":65535,"type":"datagram"}"#,
        #"{"packet":{"channel":0,"channelHash":17,"hash":"C244D7085E506646","heardAt":"2026-11-27T09:40:00.000Z","kind":"groupText","path":["a1"],"#
            + #""payloadType":"grouptext","raw":"1501a1112233","route":"flood","rssi":-77,"snr":5.5},"radio":"0","type":"packet"}"#,
        #"{"packet":{"hash":"7C7E12F3F9673C0A","heardAt":"2026-11-27T09:40:01.000Z","id":12,"kind":"advert","name":"Pine","node":"\#(key)","path":[],"#
            + #""payloadType":"advert","raw":"1100","route":"flood","rssi":-60,"snr":-2.25},"type":"packet"}"#,
        #"{"push":"TRACE_DATA","type":"push"}"#,
        #"{"radio":"0","text":"the message drain stopped: link lost","type":"problem"}"#,
    ]

    @Test(arguments: lines) func eachTypeDecodesAndEncodesBackTheSame(_ line: String) throws {
        let event = try JSONDecoder().decode(EventJSON.self, from: Data(line.utf8))
        #expect(try event.line() == line)
        #expect(line.contains(#""type":"\#(event.type)""#))
    }

    @Test func theSameEventReadsTheSameWithOrWithoutARadio() throws {
        let listened = try JSONDecoder().decode(EventJSON.self, from: Data(#"{"change":"removed","key":"\#(Self.key)","type":"contact"}"#.utf8))
        let served = try JSONDecoder().decode(EventJSON.self, from: Data(#"{"change":"removed","key":"\#(Self.key)","radio":"0","type":"contact"}"#.utf8))
        #expect(listened.body == served.body && listened.radio == nil && served.radio == "0")
    }

    @Test func aClientEventBecomesItsWireForm() throws {
        let key = try #require(PublicKey(Array(repeating: 0xAB, count: 32)))
        #expect(EventJSON.Body(.contactChanged(.removed(key))) == .contact(.removed(key: Self.key)))
        #expect(EventJSON.Body(.connection(.ready)) == .connection(state: "ready"))
        #expect(EventJSON.Body(.problem("lost")) == .problem("lost"))
    }

    @Test func anUnknownTypeIsRefusedByName() {
        #expect {
            try JSONDecoder().decode(EventJSON.self, from: Data(#"{"type":"teleport"}"#.utf8))
        } throws: { error in
            "\(error)".contains("\"teleport\" is not an event type")
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(EventJSON.self, from: Data(#"{"change":"renamed","type":"contact"}"#.utf8))
        }
    }
}
