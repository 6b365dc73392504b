import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP socket connected to 127.0.0.1:`port`, for tests that speak raw bytes to a
/// peer. `configure` runs before connecting (buffer sizes, time limits). The caller closes it.
public func connectLoopback(port: Int, configure: (Int32) -> Void = { _ in }) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ProcessFailure("socket: errno \(errno)") }
    configure(fd)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let e = errno
        close(fd)
        throw ProcessFailure("connect to 127.0.0.1:\(port): errno \(e)")
    }
    return fd
}

/// SO_RCVTIMEO for `connectLoopback`'s `configure`.
public func receiveTimeout(_ seconds: Int) -> (Int32) -> Void {
    { fd in
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
}

/// A free TCP port on 127.0.0.1 for another program to listen on (mosquitto, socat): a random
/// one below the kernel's ephemeral range, checked by binding it and released. Not port 0 read
/// back: that comes from the ephemeral range, where the many `meshport sim --listen ...:0` and
/// `serve --http ...:0` of parallel tests bind, and one of them could take it before the other
/// program does (seen: mosquitto "Address already in use" and a CLI test talking to the wrong
/// peer).
public func freeLoopbackPort() throws -> UInt16 {
    let ephemeralStart = ephemeralPortRangeStart()
    for _ in 0..<200 {
        let candidate = UInt16.random(in: 10_000..<max(10_001, ephemeralStart))
        if let fd = try boundLoopbackSocket(port: candidate) {
            close(fd)
            return candidate
        }
    }
    throw ProcessFailure("no free loopback port below \(ephemeralStart) after 200 tries")
}

/// Runs `start`, which picks its ports with `freeLoopbackPort` and starts a server on them,
/// again (at most three times in all) while it fails with "Address already in use": a port
/// found free can be taken by another test before the server binds it.
public func startingAgainOnTakenPorts(_ start: () async throws -> Void) async throws {
    for attempt in 1...3 {
        do {
            try await start()
            return
        } catch let failure as ProcessFailure where attempt < 3 && failure.description.contains("Address already in use") {
            continue
        }
    }
}

/// A TCP socket bound to 127.0.0.1:`port`; nil when the port is taken.
public func boundLoopbackSocket(port: UInt16) throws -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ProcessFailure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard bound else {
        close(fd)
        return nil
    }
    return fd
}

/// The first port of the kernel's ephemeral range (what a bind to port 0 picks from).
private func ephemeralPortRangeStart() -> UInt16 {
    let text: String
    do { text = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8) } catch { return 32768 }
    return text.split(whereSeparator: \.isWhitespace).first.flatMap { UInt16($0) } ?? 32768
}
