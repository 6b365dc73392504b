import Foundation
import MeshportTestSupport

/// A WebSocket client that upgrades and then never reads: its socket's receive buffer (kept
/// small) fills, and the server's writes to it stall, as with a client on a dead network.
final class StalledClient: @unchecked Sendable {
    private let fd: Int32

    init(port: Int) throws {
        fd = try connectLoopback(port: port) { fd in
            var size: Int32 = 4096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let request = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { throw TestFailure("write: \(errno)") }
    }

    /// Whether the server has closed its side: reads what is buffered without waiting and
    /// looks for the end of the stream.
    func serverClosed() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    deinit { close(fd) }
}
