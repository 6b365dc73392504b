import Foundation
import MeshportTestSupport
import MeshTransport
import Testing

@testable import MeshportServer

/// One test per rule of Docs/server.md "Security", against the real server.
@Suite(.timeLimit(.minutes(2))) struct SecurityTests {
    @Test func loopbackNeedsNoTokenButOnlyAnswersItsOwnHostNames() async throws {
        let world = try await ServerWorld()
        #expect(try await world.get("/api/radios").status == 200)
        for host in ["localhost:\(world.port)", "[::1]:\(world.port)", "127.0.0.2:\(world.port)"] {
            let reply = try await RawHTTP.request(port: world.port, "GET", "/api/radios", host: host)
            #expect(reply.status == 200, "\(host): \(reply)")
        }
        // A page whose DNS name was rebound to 127.0.0.1 sends its own name as Host.
        let rebound = try await RawHTTP.request(port: world.port, "GET", "/api/radios", host: "attacker.example:\(world.port)")
        #expect(rebound.status == 403 && rebound.errorCode == "host_not_allowed", "\(rebound)")
    }

    @Test func anyOtherBindNeedsATokenFile() async throws {
        let dir = TempDir()
        let refused = try await runMeshport(["serve", "--radio", "tcp://127.0.0.1:1", "--db", dir.path(), "--http", "0.0.0.0:0"])
        #expect(refused.status == 64 && refused.err.contains("--token-file"), "\(refused.status) \(refused.err)")
    }

    @Test func theTokenIsMadePrivateAndRequired() async throws {
        let dir = TempDir()
        let tokenFile = dir.path("secrets/token")
        let world = try await ServerWorld(serveArguments: ["--token-file", tokenFile], waitReady: false)
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 64)

        let none = try await world.get("/api/radios")
        #expect(none.status == 401 && none.errorCode == "unauthorized" && none.header("WWW-Authenticate") != nil, "\(none)")
        #expect(try await world.get("/api/radios", headers: [("Authorization", "Bearer wrong-token-wrong-token")]).status == 401)
        #expect(try await world.get("/metrics").status == 401)
        #expect(try await world.get("/api/radios", headers: [("Authorization", "Bearer \(token)")]).status == 200)
        // Open without it: the health check and the UI's own files.
        #expect(try await world.get("/healthz").status == 200)
        #expect(try await world.get("/").status == 200)
        // The UI's login: the token in, an HttpOnly SameSite cookie out, which then works.
        #expect(try await world.send("POST", "/api/session", ["token": "nope"]).status == 401)
        let login = try await world.send("POST", "/api/session", ["token": token])
        let cookie = try #require(login.header("Set-Cookie"), "\(login)")
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        let pair = String(cookie.split(separator: ";")[0])
        #expect(try await world.get("/api/radios", headers: [("Cookie", pair)]).status == 200)
        // A WebSocket without the token is not upgraded. hummingbird-websocket answers every
        // refused upgrade with a bare 400; the rule that refused it is counted in /metrics.
        let bearer = [("Authorization", "Bearer \(token)")]
        let tokenRefusals = try await rejected("token", world, headers: bearer)
        let socket = try await RawWebSocket.connect(port: world.port)
        #expect(socket.status == 400, "\(socket.responseHead)")
        #expect(try await rejected("token", world, headers: bearer) > tokenRefusals)
        let authorized = try await RawWebSocket.connect(port: world.port, headers: [("Authorization", "Bearer \(token)")])
        #expect(authorized.status == 101, "\(authorized.responseHead)")

        // A token file others can read is refused.
        let loose = dir.path("loose-token")
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: loose))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: loose)
        let refused = try await runMeshport(["serve", "--radio", "tcp://127.0.0.1:1", "--db", dir.path(), "--http", "127.0.0.1:0", "--token-file", loose])
        #expect(refused.status == 64 && refused.err.contains("chmod 600"), "\(refused.err)")
    }

    @Test func originIsCheckedOnChangesAndUpgrades() async throws {
        let world = try await ServerWorld(serveArguments: ["--allow-origin", "http://ui.example:3000"])
        let path = "/api/radios/0/channels/0/messages"
        let foreign = try await world.send("POST", path, ["text": "csrf"], headers: [("Origin", "http://evil.example")])
        #expect(foreign.status == 403 && foreign.errorCode == "origin_not_allowed", "\(foreign)")
        #expect(try await world.send("POST", path, ["text": "null origin"], headers: [("Origin", "null")]).status == 403)
        #expect(try await world.send("POST", path, ["text": "own"], headers: [("Origin", "http://127.0.0.1:\(world.port)")]).status == 201)
        #expect(try await world.send("POST", path, ["text": "allowed"], headers: [("Origin", "http://ui.example:3000")]).status == 201)
        #expect(try await world.send("POST", path, ["text": "no origin (curl)"]).status == 201)
        // Reading is not changing: a foreign Origin may GET (the browser keeps the answer from it).
        #expect(try await world.get("/api/radios", headers: [("Origin", "http://evil.example")]).status == 200)
        let originRefusals = try await rejected("origin", world)
        let evilSocket = try await RawWebSocket.connect(port: world.port, headers: [("Origin", "http://evil.example")])
        #expect(evilSocket.status == 400, "\(evilSocket.responseHead)")
        #expect(try await rejected("origin", world) > originRefusals)
        let ownSocket = try await RawWebSocket.connect(port: world.port, headers: [("Origin", "http://127.0.0.1:\(world.port)")])
        #expect(ownSocket.status == 101, "\(ownSocket.responseHead)")
        // None of the refused messages reached the radio.
        let texts = try await world.get("/api/radios/0/channels/0/messages?limit=50").object["messages"] as? [[String: Any]]
        #expect(!(texts ?? []).contains { ($0["text"] as? String) == "csrf" || ($0["text"] as? String) == "null origin" })
    }

    @Test func bodiesAreLimited() async throws {
        let world = try await ServerWorld(serveArguments: ["--max-body", "1024"])
        let big = Array(#"{"text": ""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 5000) + Array(#""}"#.utf8)
        let declared = try await RawHTTP.request(port: world.port, "POST", "/api/radios/0/channels/0/messages",
                                                 headers: [("Content-Type", "application/json")], body: big)
        #expect(declared.status == 413 && declared.errorCode == "body_too_large", "\(declared)")
        // Chunked: no length up front, refused once the limit is passed.
        var chunked: [UInt8] = []
        for part in stride(from: 0, to: big.count, by: 500) {
            let piece = big[part..<min(part + 500, big.count)]
            chunked += Array(String(piece.count, radix: 16).utf8) + [13, 10] + piece + [13, 10]
        }
        chunked += Array("0\r\n\r\n".utf8)
        let streamed = try await RawHTTP.request(port: world.port, "POST", "/api/radios/0/channels/0/messages",
                                                 headers: [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")], body: chunked)
        #expect(streamed.status == 413, "\(streamed)")
        #expect(try await world.send("POST", "/api/radios/0/channels/0/messages", ["text": "small"]).status == 201)
    }

    @Test func staticPathsCannotLeaveTheirRoot() async throws {
        let dir = TempDir()
        let root = dir.url.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("js"), withIntermediateDirectories: true)
        try Data("<h1>ui</h1>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("export const x = 1".utf8).write(to: root.appendingPathComponent("js/app.js"))
        try Data("TOP-SECRET-OUTSIDE".utf8).write(to: dir.url.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link.txt"), withDestinationURL: dir.url.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("up"), withDestinationURL: dir.url)
        let world = try await ServerWorld(serveArguments: ["--web-root", root.path], waitReady: false)

        let index = try await world.get("/")
        #expect(index.status == 200 && index.text == "<h1>ui</h1>" && index.header("Content-Security-Policy") != nil)
        let script = try await world.get("/js/app.js")
        #expect(script.status == 200 && script.header("Content-Type")?.hasPrefix("text/javascript") == true)
        for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/js/..%2f..%2fsecret.txt", "/js/%2e%2e/%2e%2e/secret.txt", "/link.txt",
                     "/up/secret.txt", "/..%5csecret.txt", "/js/app.js%00.html", "//etc/passwd", "/js/./app.js"] {
            let reply = try await world.get(path)
            #expect(reply.status == 404 && !reply.text.contains("TOP-SECRET"), "\(path): \(reply)")
        }
    }

    /// A request NIO cannot parse is answered 400 and closed at once, counted, and not logged
    /// as a server error; the server goes on answering others.
    @Test func malformedRequestsAreAnsweredAndClosed() async throws {
        let world = try await ServerWorld(waitReady: false)
        for raw in ["GET /a b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "GARBAGE\r\n\r\n",
                    "GET /api/radios HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n"] {
            // exchange() reads until the server closes: a connection left open fails the deadline.
            let reply = try RawHTTP.parse(try await RawHTTP.exchange(port: world.port, Array(raw.utf8), timeout: .seconds(5)))
            #expect(reply.status == 400 && reply.text.hasPrefix("malformed HTTP request"), "\(raw.debugDescription): \(reply)")
        }
        #expect(try await world.get("/healthz").status == 200)
        #expect(try await rejected("malformed", world) == 3)
        #expect(!world.serve.stderr.contains("upgrade result"), "\(world.serve.stderr)")
    }

    @Test func passwordsAndChannelSecretsNeverReachTheLogs() async throws {
        let world = try await ServerWorld(serveArguments: ["--log-level", "trace"])
        let repeater = try await world.contactKey("Repeater North")
        let password = "pw-never-logged-7Q"
        let wrong = try await world.send("POST", "/api/radios/0/remote/\(repeater)/login", ["password": password])
        #expect(wrong.status == 504 || wrong.status == 422, "\(wrong)")
        let secret = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
        let set = try await world.send("PUT", "/api/radios/0/channels/3", ["name": "Hidden", "secret": secret])
        #expect(set.status == 200, "\(set)")
        let phrase = "phrase-never-logged-9Z"
        let joined = try await world.send("POST", "/api/radios/0/channels", ["name": "Club", "passphrase": phrase])
        #expect(joined.status == 201, "\(joined)")
        let channels = try await world.get("/api/radios/0/channels")
        #expect(!channels.text.contains(secret) && !channels.text.lowercased().contains("secret"), "\(channels.text)")
        let status = try await world.serve.stop()
        #expect(status == 0)
        let logs = world.serve.stdout + world.serve.stderr
        #expect(!logs.isEmpty)
        for hidden in [password, secret, phrase] { #expect(!logs.contains(hidden), "\(hidden) in the logs") }
    }

    /// How many requests the server refused by `rule` so far (from /metrics).
    private func rejected(_ rule: String, _ world: ServerWorld, headers: [(String, String)] = []) async throws -> Int {
        let text = try await world.get("/metrics", headers: headers).text
        let prefix = "meshport_requests_rejected_total{rule=\"\(rule)\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }
}

/// A BLE pairing PIN in a radio's URL is a secret: shown as ****** by the API, /metrics and logs.
@Suite struct ShownURLTests {
    @Test func aPINIsHiddenEverywhereTheURLIsShown() throws {
        let url = try TransportURL("ble://F0:12:34:56:78:9A?pin=123456&hci=hci0")
        let shown = ShownURL(url)
        #expect(shown.shown == "ble://F0:12:34:56:78:9A?pin=******&hci=hci0")
        #expect(shown.redact("link ble://F0:12:34:56:78:9A?pin=123456&hci=hci0 closed") == "link \(shown.shown) closed")
        // An API error from the link names the URL; the server answers it redacted.
        let failure = APIError(.badGateway, "link_lost", "link lost on ble://F0:12:34:56:78:9A?pin=123456&hci=hci0: timeout")
        #expect(failure.redacted(by: shown.redact).message == "link lost on \(shown.shown): timeout")
        let plain = ShownURL(try TransportURL("tcp://127.0.0.1:5000"))
        #expect(plain.shown == "tcp://127.0.0.1:5000" && plain.redact("x tcp://127.0.0.1:5000") == "x tcp://127.0.0.1:5000")
    }
}
