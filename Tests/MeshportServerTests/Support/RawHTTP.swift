import Foundation
import NIOCore
import NIOPosix

/// One HTTP/1.1 exchange over a fresh TCP connection, written byte for byte as given (paths
/// with `..`, any Host or Origin, oversized bodies), read until the server closes it.
struct HTTPReply: Sendable, CustomStringConvertible {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var text: String { String(decoding: body, as: UTF8.self) }
    func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
    var object: [String: Any] { ((try? json()) as? [String: Any]) ?? [:] }
    var array: [[String: Any]] { ((try? json()) as? [[String: Any]]) ?? [] }
    var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
    var description: String { "\(status) \(text.prefix(400))" }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum RawHTTP {
    static func request(port: Int, _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
                        host: String? = nil, timeout: Duration = .seconds(30)) async throws -> HTTPReply {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "transfer-encoding" }) { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + (body ?? [])
        let raw = try await exchange(port: port, bytes, timeout: timeout)
        return try parse(raw)
    }

    /// A JSON body with its Content-Type.
    static func json(port: Int, _ method: String, _ path: String, _ value: Any, headers: [(String, String)] = []) async throws -> HTTPReply {
        let body = try JSONSerialization.data(withJSONObject: value)
        return try await request(port: port, method, path, headers: [("Content-Type", "application/json")] + headers, body: Array(body))
    }

    /// Writes `bytes`, reads until EOF.
    static func exchange(port: Int, _ bytes: [UInt8], timeout: Duration) async throws -> [UInt8] {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await withDeadline(timeout, "HTTP answer from port \(port)") {
            try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(bytes: bytes))
                var out: [UInt8] = []
                do {
                    for try await chunk in inbound { out += chunk.readableBytesView }
                } catch {
                    // A reset after the answer (the server closed without reading all we sent).
                    if out.isEmpty { throw error }
                }
                return out
            }
        }
    }

    static func parse(_ raw: [UInt8]) throws -> HTTPReply {
        guard let end = find(raw, [13, 10, 13, 10]) else { throw TestFailure("no HTTP head in \(String(decoding: raw.prefix(200), as: UTF8.self))") }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw TestFailure("bad status line \(lines[0])") }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(raw[(end + 4)...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            body = try unchunk(body)
        }
        return HTTPReply(status: status, headers: headers, body: body)
    }

    static func unchunk(_ data: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            guard let lineEnd = find(Array(data[i...]), [13, 10]) else { break }
            let sizeText = String(decoding: data[i..<(i + lineEnd)], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16) else { throw TestFailure("bad chunk size \(sizeText)") }
            i += lineEnd + 2
            if size == 0 { break }
            out += data[i..<min(i + size, data.count)]
            i += size + 2
        }
        return out
    }

    static func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}

/// Runs `body`, failing with a message naming `what` when it takes longer than `limit`.
func withDeadline<T: Sendable>(_ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw TestFailure("no \(what) within \(limit)")
        }
        group.cancelAll()
        return value
    }
}
