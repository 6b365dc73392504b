import Foundation
import MeshportTestSupport
import Testing
@testable import MeshMQTT

@Suite struct MQTTBrokerURLTests {
    @Test func parsesPlainURLWithCredentialsAndOptions() throws {
        let url = try MQTTBrokerURL(parsing: "mqtt://gw%40home:p%3Ass@broker.example:1884?qos=0&client-id=gw-1&keepalive=30")
        #expect(url.scheme == .mqtt)
        #expect(url.host == "broker.example")
        #expect(url.port == 1884)
        #expect(url.username == "gw@home")
        #expect(url.password == "p:ss")
        #expect(url.qos == .atMostOnce)
        #expect(url.clientID == "gw-1")
        #expect(url.keepAliveSeconds == 30)
        #expect(url.pahoServerURI == "tcp://broker.example:1884")
        #expect(url.description == "mqtt://gw@home:***@broker.example:1884")
    }

    @Test func appliesEachSchemesDefaults() throws {
        let plain = try MQTTBrokerURL(parsing: "mqtt://localhost")
        #expect(plain.port == 1883)
        #expect(plain.qos == .atLeastOnce)
        #expect(plain.keepAliveSeconds == 60)
        #expect(plain.username == nil)
        #expect(try MQTTBrokerURL(parsing: "mqtts://h").pahoServerURI == "ssl://h:8883")
        #expect(try MQTTBrokerURL(parsing: "ws://h").pahoServerURI == "ws://h:80/mqtt")
        #expect(try MQTTBrokerURL(parsing: "wss://h:8443/ws").pahoServerURI == "wss://h:8443/ws")
        #expect(try MQTTBrokerURL(parsing: "mqtt://[::1]:1883").pahoServerURI == "tcp://[::1]:1883")
    }

    @Test func readsTheCAFileOnlyForTLS() throws {
        let folder = TempDir()
        let ca = folder.path("ca.pem")
        try Data("x".utf8).write(to: URL(fileURLWithPath: ca))
        #expect(try MQTTBrokerURL(parsing: "mqtts://h?ca=\(ca)").caFile == ca)
        #expect(reason("mqtt://h?ca=\(ca)").contains("needs a TLS scheme"))
        #expect(reason("mqtts://h?ca=/nonexistent/ca.pem").contains("/nonexistent/ca.pem does not exist"))
    }

    @Test func sayWhatIsWrongAndWhere() {
        #expect(reason("broker:1883").contains("no scheme"))
        #expect(reason("http://h").contains("\"http\" is not one of"))
        #expect(reason("mqtt://:1883").contains("host name is missing"))
        #expect(reason("mqtt://h:99999").contains("port \"99999\""))
        #expect(reason("mqtt://h/path").contains("only meaningful for ws://"))
        #expect(reason("mqtt://h?qos=2").contains("qos=2 is not 0 or 1"))
        #expect(reason("mqtt://h?keepalive=1").contains("keepalive=1"))
        #expect(reason("mqtt://h?qos=1&qos=0").contains("given twice"))
        #expect(reason("mqtt://h?retain=1").contains("\"retain\" is unknown"))
        #expect(reason("mqtt://h?qos").contains("needs a value"))
        #expect(reason("mqtt://[::1:1883").contains("no closing ]"))
    }

    @Test func hidesThePasswordInErrors() {
        #expect(throws: MQTTError.invalidURL(url: "mqtt://u:***@h?qos=7", reason: "qos=7 is not 0 or 1")) {
            try MQTTBrokerURL(parsing: "mqtt://u:hunter2@h?qos=7")
        }
    }

    @Test func checksTopicsAndFilters() throws {
        try TopicRules.checkFilter("$share/ingest/meshcore/+/+/packets")
        try TopicRules.checkFilter("meshcore/#")
        #expect(throws: MQTTError.self) { try TopicRules.checkFilter("meshcore/#/packets") }
        #expect(throws: MQTTError.self) { try TopicRules.checkFilter("mesh+core") }
        #expect(throws: MQTTError.self) { try TopicRules.checkTopic("meshcore/+") }
        #expect(throws: MQTTError.self) { try TopicRules.checkTopic("") }
    }

    private func reason(_ text: String) -> String {
        do {
            _ = try MQTTBrokerURL(parsing: text)
            return "parsed"
        } catch {
            if case .invalidURL(_, let reason) = error { return reason }
            return "\(error)"
        }
    }
}
