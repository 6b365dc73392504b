import Foundation
import MeshCodec
#if canImport(Glibc)
import Glibc
#endif

/// The baseline: the same socket or pty used directly in this process, with blocking
/// reads and writes and MeshCodec's framing, no plugin boundary, threads or streams.
final class DirectLink {
    private let fd: Int32
    var descriptor: Int32 { fd }
    private var decoder = FrameDecoder(direction: .fromRadio)
    private var ready: [[UInt8]] = []
    private var next = 0
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// A TCP connection to 127.0.0.1:`port` with TCP_NODELAY, as the TCP driver sets it.
    init(tcpPort port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else { throw BenchError("connect 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
    }

    /// The pty slave at `path`, raw, as the serial driver configures it.
    init(ptyPath path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchError("open \(path): \(String(cString: strerror(errno)))") }
        var t = termios()
        tcgetattr(fd, &t)
        cfmakeraw(&t)
        tcsetattr(fd, TCSANOW, &t)
    }

    deinit { close(fd) }

    func send(_ frame: [UInt8]) throws {
        let framed = try FrameEncoder.encode(frame, direction: .toRadio)
        var off = 0
        while off < framed.count {
            let n = framed[off...].withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw BenchError("write: \(String(cString: strerror(errno)))") }
            off += n
        }
    }

    func receive() throws -> [UInt8] {
        while next == ready.count {
            ready.removeAll(keepingCapacity: true)
            next = 0
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { throw BenchError("read: \(n == 0 ? "end of stream" : String(cString: strerror(errno)))") }
            decoder.feed(buffer[0..<n]) { event in
                if case let .frame(f) = event { ready.append(f) }
            }
        }
        defer { next += 1 }
        return ready[next]
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
