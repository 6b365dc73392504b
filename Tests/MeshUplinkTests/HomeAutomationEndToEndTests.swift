import Foundation
import MeshportTestSupport
import Testing

/// The home automation topics as a home automation system uses them: `meshport uplink` with
/// `messages=on&commands=on`, `meshport sim` whose node Ann sends the radio a DM and answers
/// ours, a real Mosquitto, `mosquitto_sub` reading and `mosquitto_pub` sending commands.
@Suite(.timeLimit(.minutes(3))) struct HomeAutomationEndToEndTests {
    /// Ann is a zero-hop contact with a known path; her DM comes once the gateway is up.
    static let scenario = """
        {"nodes": [{"id": "ann", "name": "Ann", "knownPath": true}],
         "events": [{"at": 20, "dm": {"from": "ann", "text": "the door is open"}}]}
        """

    /// The same through `meshport uplink` and through `serve --mqtt`, where commands go through
    /// the radio's own messenger.
    @Test(arguments: [["uplink"], ["serve", "--http", "127.0.0.1:0"]])
    func messagesArePublishedAndCommandsSendThemWithTheirOutcome(_ command: [String]) async throws {
        let folder = TempDir()
        let scenarioFile = folder.path("scenario.json")
        try Data(Self.scenario.utf8).write(to: URL(fileURLWithPath: scenarioFile))
        let broker = try await MosquittoProcess()
        let reader = try await MosquittoSubscriber(broker, filters: ["meshport/#", "meshcore/+/+/status"])
        let sim = try await SimProcess(["--scenario", scenarioFile, "--listen", "tcp://127.0.0.1:0"])
        let gateway = try MeshportProcess(command + ["--radio", sim.address,
                                   "--mqtt", broker.url(query: "region=TST&messages=on&commands=on")])

        let online = await reader.waitUntil(within: 90) { UplinkEndToEndTests.messages($0).contains { $0.topic.hasSuffix("/status") } }
        let status = try #require(UplinkEndToEndTests.messages(online).first { $0.topic.hasSuffix("/status") },
                                  "the gateway never came online: \(gateway.err.current)")
        let key = try #require(status.json["origin_id"] as? String)
        let send = "meshport/\(key)/send"
        try await publishWithTool(broker, topic: send, text: #"{"id": "dm", "to": "ann", "text": "lights on"}"#)
        try await publishWithTool(broker, topic: send, text: #"{"id": "all", "channel": 0, "text": "good evening"}"#)
        try await publishWithTool(broker, topic: send, text: "lights off")
        try await publishWithTool(broker, topic: send, text: #"{"id": "who", "to": "Bob", "text": "hi"}"#)
        // The same id again, as a QoS 1 redelivery brings it: not sent twice. Then one more, so
        // the wait below knows the repeat was handled.
        try await publishWithTool(broker, topic: send, text: #"{"id": "all", "channel": 0, "text": "good evening"}"#)
        try await publishWithTool(broker, topic: send, text: #"{"id": "end", "to": "Nobody", "text": "x"}"#)

        @Sendable func outcomes(_ lines: [String]) -> [[String: Any]] {
            UplinkEndToEndTests.messages(lines).filter { $0.topic == "meshport/\(key)/sent" }.map(\.json)
        }
        @Sendable func events(_ lines: [String]) -> [[String: Any]] {
            UplinkEndToEndTests.messages(lines).filter { $0.topic == "meshport/\(key)/messages" }.map(\.json)
        }
        let lines = await reader.waitUntil(within: 90) { lines in
            let results = outcomes(lines).map { "\($0["id"] ?? "-") \($0["result"] ?? "-")" }
            return results.contains("dm delivered") && results.contains("all sent") && results.contains("end rejected") && results.count >= 6
                && events(lines).contains { ($0["message"] as? [String: Any])?["text"] as? String == "the door is open" }
        }
        let said = "gateway said: \(gateway.err.current)\ngot: \(reader.received.joined(separator: "\n"))"
        let got = outcomes(lines)
        func outcome(_ id: String?, _ result: String) -> [String: Any]? {
            got.first { $0["id"] as? String == id && $0["result"] as? String == result }
        }

        let accepted = try #require(outcome("dm", "accepted"), "\(said)")
        let acceptedMessage = try #require(accepted["message"] as? [String: Any])
        #expect(acceptedMessage["text"] as? String == "lights on" && acceptedMessage["direction"] as? String == "out")
        let delivered = try #require(outcome("dm", "delivered"), "\(said)")
        #expect((delivered["message"] as? [String: Any])?["status"] as? String == "delivered")
        let channel = try #require(outcome("all", "sent"), "\(said)")
        let channelMessage = try #require(channel["message"] as? [String: Any])
        #expect((channelMessage["conversation"] as? [String: Any])?["channel"] as? Int == 0)
        #expect(channelMessage["status"] as? String == "sent")
        #expect(got.filter { $0["id"] as? String == "all" }.count == 1, "the repeated command was run again: \(said)")
        #expect(gateway.err.current.contains("not sent twice"), "the repeat is not in the log: \(gateway.err.current)")

        let notJSON = try #require(outcome(nil, "rejected"), "\(said)")
        #expect(notJSON["error"] as? String == "bad-command" && (notJSON["reason"] as? String)?.contains("not a JSON object") == true, "\(notJSON)")
        let unknown = try #require(outcome("who", "rejected"), "\(said)")
        #expect(unknown["error"] as? String == "unknown-contact" && (unknown["reason"] as? String)?.contains("\"Bob\"") == true, "\(unknown)")
        #expect(gateway.err.current.contains("rejected"), "a bad command is also in the log: \(gateway.err.current)")
        #expect(gateway.process.isRunning, "a bad command must not end the gateway")

        // The messages topic carries the same events as /api/events: Ann's DM, and ours as it moved on.
        let published = events(lines)
        let incoming = try #require(published.first { ($0["message"] as? [String: Any])?["text"] as? String == "the door is open" }, "\(said)")
        #expect(incoming["type"] as? String == "message")
        let dm = try #require(incoming["message"] as? [String: Any])
        #expect(dm["direction"] as? String == "in" && dm["sender"] as? String == "Ann")
        #expect((dm["conversation"] as? [String: Any])?["kind"] as? String == "direct")
        let ours = published.filter { $0["type"] as? String == "messageStatus" && ($0["message"] as? [String: Any])?["text"] as? String == "lights on" }
        #expect(ours.contains { ($0["message"] as? [String: Any])?["status"] as? String == "delivered" }, "\(said)")
        withExtendedLifetime(sim) {}
    }
}
