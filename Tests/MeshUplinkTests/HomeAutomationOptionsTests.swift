@testable import MeshUplink
import Testing

/// The `messages` and `commands` options of a `--mqtt` URL, and the commands' JSON.
@Suite struct HomeAutomationOptionsTests {
    @Test func bothAreOffByDefaultAndLeaveTheBrokerURL() throws {
        let target = try UplinkTarget(parsing: "mqtt://u:p@127.0.0.1:1883?region=AMS&qos=0")
        #expect(!target.messages && !target.commands)
        let on = try UplinkTarget(parsing: "mqtt://u:p@127.0.0.1:1883?messages=on&region=AMS&commands=on&qos=0")
        #expect(on.messages && on.commands)
        #expect(on.broker.description == target.broker.description, "the options are the uplink's, not the broker's")
        let off = try UplinkTarget(parsing: "mqtt://u:p@127.0.0.1?region=AMS&messages=off&commands=off")
        #expect(!off.messages && !off.commands)
    }

    @Test func aValueOtherThanOnOrOffIsRefused() {
        #expect(throws: UplinkError.badOption(url: "mqtt://u:***@127.0.0.1:1883", option: "messages", reason: "\"yes\" is not on or off")) {
            try UplinkTarget(parsing: "mqtt://u:p@127.0.0.1?region=AMS&messages=yes")
        }
        #expect(throws: UplinkError.self) { try UplinkTarget(parsing: "mqtt://u:p@127.0.0.1?region=AMS&commands") }
    }

    @Test func aCommunityBrokerGetsNeitherMessagesNorCommands() {
        for option in ["messages=on", "commands=on"] {
            do {
                _ = try UplinkTarget(parsing: "mqtts://mqtt.example?region=AMS&auth=token&\(option)")
                Issue.record("token auth with \(option) was accepted")
            } catch {
                #expect("\(error)".contains("community brokers"), "\(error)")
            }
        }
    }

    @Test func commandsReadADirectOrAChannelMessage() throws {
        let dm = try HomeCommand(decoding: Array(#"{"to": "Ann", "text": "lights on", "id": "a1"}"#.utf8))
        #expect(dm == HomeCommand(id: "a1", recipient: .contact("Ann"), text: "lights on"))
        let channel = try HomeCommand(decoding: Array(#"{"channel": 2, "text": "hello"}"#.utf8))
        #expect(channel == HomeCommand(id: nil, recipient: .channel(2), text: "hello"))
    }

    @Test(arguments: [
        ("lights on", nil, "not a JSON object"),
        (#"["to", "Ann"]"#, nil, "not a JSON object"),
        (#"{"to": "Ann"}"#, nil, "\"text\" is missing"),
        (#"{"text": "hi", "id": "k"}"#, "k", "give \"to\""),
        (#"{"to": "Ann", "channel": 1, "text": "hi"}"#, nil, "not both"),
        (#"{"channel": 300, "text": "hi"}"#, nil, "not a slot from 0 to 255"),
        (#"{"channel": "one", "text": "hi"}"#, nil, "\"channel\" is not a whole number"),
        (#"{"to": 7, "text": "hi"}"#, nil, "\"to\" is not text"),
        (#"{"to": "", "text": "hi"}"#, nil, "\"to\" is empty"),
    ] as [(String, String?, String)])
    func aBadCommandSaysWhatIsWrong(payload: String, id: String?, says: String) {
        do {
            let command = try HomeCommand(decoding: Array(payload.utf8))
            Issue.record("\(payload) was read as \(command)")
        } catch {
            guard case let .badCommand(gotID, reason) = error else { Issue.record("\(error)"); return }
            #expect(gotID == id)
            #expect(reason.contains(says), "\(payload): \(reason)")
            #expect(error.code == "bad-command" && error.savedNothing)
        }
    }
}
