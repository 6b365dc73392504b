import Glibc
import MeshDriverKit
import Testing

/// `writeNoSignal` picks the call once per descriptor: sockets must not raise SIGPIPE (it
/// would end the test run), ttys and pipes must still be written.
struct WriteNoSignalTests {
    @Test func socketsAreToldApartFromPipes() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { (pair + pipeEnds).forEach { _ = close($0) } }
        #expect(isSocket(pair[0]))
        #expect(!isSocket(pipeEnds[1]))
        #expect(!isSocket(-1))
    }

    @Test func aClosedSocketPeerIsEPIPENotASignal() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { _ = close(pair[0]) }
        _ = close(pair[1])
        let bytes: [UInt8] = [0x3c, 1, 0, 7]
        let n = bytes.withUnsafeBytes { writeNoSignal(pair[0], $0.baseAddress!, $0.count, socket: isSocket(pair[0])) }
        let code = errno
        #expect(n == -1)
        #expect(code == EPIPE)
    }

    @Test func pipesAreWrittenWithPlainWrite() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { _ = close($0) } }
        let bytes: [UInt8] = [0x3c, 1, 0, 7]
        let n = bytes.withUnsafeBytes { writeNoSignal(ends[1], $0.baseAddress!, $0.count, socket: isSocket(ends[1])) }
        #expect(n == bytes.count)
        var back = [UInt8](repeating: 0, count: 8)
        #expect(read(ends[0], &back, back.count) == bytes.count)
        #expect(Array(back.prefix(bytes.count)) == bytes)
    }
}
