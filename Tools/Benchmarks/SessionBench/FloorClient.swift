import MeshCodec
#if canImport(Glibc)
import Glibc
#endif

/// The floor: the same sim and socket with the least a client can do, one blocking
/// socket in this thread and MeshCodec (encode, frame, deframe, decode), no session,
/// plugin, threads or streams. What it takes is the simulator's and the kernel's share.
final class FloorClient: BenchClient {
    private let fd: Int32
    private var decoder = FrameDecoder(direction: .fromRadio)
    private var ready: [[UInt8]] = []
    private var next = 0
    private var buffer = [UInt8](repeating: 0, count: 65_536)

    init(host: String, port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr(host)
        addr.sin_port = UInt16(port).bigEndian
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else { throw BenchError("connect \(host):\(port): \(String(cString: strerror(errno)))") }
        guard case .response(.selfInfo) = try call(.appStart(AppStart(appName: "meshport-floor"))) else { throw BenchError("APP_START: no SELF_INFO") }
    }

    deinit { close(fd) }

    func roundTrip() throws {
        guard case .response(.deviceInfo) = try call(.deviceQuery(appTargetVersion: 3)) else { throw BenchError("DEVICE_QUERY: no DEVICE_INFO") }
    }

    func syncContacts() throws -> Int {
        guard case .response(.contactsStart) = try call(.getContacts(since: nil)) else { throw BenchError("GET_CONTACTS: no CONTACTS_START") }
        var count = 0
        while true {
            switch try RadioFrame(decoding: try receive()) {
            case .response(.contact): count += 1
            case .response(.endOfContacts): return count
            case .push: continue
            case let other: throw BenchError("GET_CONTACTS: \(other.name) inside the stream")
            }
        }
    }

    func drain() throws -> Int {
        var count = 0
        while true {
            switch try call(.syncNextMessage) {
            case .response(.noMoreMessages): return count
            case .response(.contactMessage), .response(.channelMessage), .response(.channelData): count += 1
            case let other: throw BenchError("SYNC_NEXT_MESSAGE: \(other.name)")
            }
        }
    }

    /// Sends `command` and returns the first answer that is not a push.
    private func call(_ command: Command) throws -> RadioFrame {
        let framed = try FrameEncoder.encode(try command.encode(), direction: .toRadio)
        var off = 0
        while off < framed.count {
            let n = framed[off...].withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw BenchError("write: \(String(cString: strerror(errno)))") }
            off += n
        }
        while true {
            let frame = try RadioFrame(decoding: try receive())
            if case .push = frame { continue }
            return frame
        }
    }

    private func receive() throws -> [UInt8] {
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
