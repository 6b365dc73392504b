import Foundation
import MeshportTestSupport
import Testing

/// The emulated BLE world as tests use it: started bridged to `meshport sim`, reached as an
/// HCI controller over raw H4 on its TCP port, steered through its controls, and gone with
/// its owner. (Meshport's LE host against it: MeshBLETests, ConformanceTests.)
@Suite(.timeLimit(.minutes(1))) struct BLEWorldTests {
    @Test func bridgedWorldAnswersRawH4AndControls() async throws {
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0"])
        let simPort = try #require(sim.address.split(separator: ":").last.map(String.init))
        let world = try await BLEWorldProcess(["--bridge", "127.0.0.1:\(simPort)", "--drop-on-bridge-close", "--peripherals", "3", "--noise"])
        #expect(world.peripherals == ["F0:00:00:00:00:01", "F0:00:00:00:00:02", "F0:00:00:00:00:03"])
        #expect(world.names == ["MeshCore-TEST", "MeshCore-TEST-2", "MeshCore-TEST-3"])
        #expect(world.noise == "F1:00:00:00:00:99")

        let seen = try await offPool { [port = world.port] in try H4Probe.resetAndScan(port: port) }
        #expect(seen.reset == [0x01, 0x03, 0x0C, 0x00], "Command Complete for HCI_Reset: \(seen.reset)")
        // Advertising reports carry the address least significant byte first.
        #expect(seen.advertisers.contains([0x01, 0, 0, 0, 0, 0xF0]) && seen.advertisers.contains([0x99, 0, 0, 0, 0, 0xF1]), "\(seen.advertisers)")

        #expect(try await world.control("status 2") == "status F0:00:00:00:00:02 name=MeshCore-TEST-2 links=0 bonds=0 bridges=0")
        await #expect(throws: ProcessFailure.self) { try await world.control("cut 1 notify") }  // nothing connected
        await world.stop()
        #expect(!world.isRunning)
        await #expect(throws: ProcessFailure.self) { try await world.control("status") }
        withExtendedLifetime(sim) {}
    }
}

/// Just enough of an HCI host over H4/TCP to see that a controller answers.
private enum H4Probe {
    struct Seen: Sendable {
        /// The Command Complete parameters for HCI_Reset: packets, opcode, status.
        var reset: [UInt8] = []
        /// Addresses (as sent, LSB first) from LE Advertising Reports.
        var advertisers: Set<[UInt8]> = []
    }

    static func resetAndScan(port: Int) throws -> Seen {
        let fd = try connectLoopback(port: port, configure: receiveTimeout(5))
        defer { close(fd) }
        var reader = EventReader(fd: fd)
        var seen = Seen()

        try write(fd, [0x01, 0x03, 0x0C, 0x00])  // HCI_Reset
        seen.reset = try reader.next { $0.code == 0x0E }.parameters
        try write(fd, [0x01, 0x01, 0x20, 0x08, 0x1F, 0, 0, 0, 0, 0, 0, 0])  // LE_Set_Event_Mask
        _ = try reader.next { $0.code == 0x0E }
        try write(fd, [0x01, 0x0B, 0x20, 0x07, 0x00, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00])  // passive scan, 10 ms
        _ = try reader.next { $0.code == 0x0E }
        try write(fd, [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00])  // scan on
        // Each advertiser is heard every 100-150 ms; 200 reports are far more than needed.
        for _ in 0..<200 where !(seen.advertisers.contains([0x01, 0, 0, 0, 0, 0xF0]) && seen.advertisers.contains([0x99, 0, 0, 0, 0, 0xF1])) {
            let event = try reader.next { $0.code == 0x3E && $0.parameters.first == 0x02 }
            // subevent, count, type, address type, address (6)
            if event.parameters.count >= 10 { seen.advertisers.insert(Array(event.parameters[4..<10])) }
        }
        try write(fd, [0x01, 0x0C, 0x20, 0x02, 0x00, 0x00])  // scan off
        return seen
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) throws {
        let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n == bytes.count else { throw ProcessFailure("H4 write: errno \(errno)") }
    }

    struct Event { var code: UInt8; var parameters: [UInt8] }

    /// H4 events from the socket (ACL data cannot come: nothing connects).
    struct EventReader {
        let fd: Int32
        var buffer: [UInt8] = []

        mutating func next(where wanted: (Event) -> Bool) throws -> Event {
            for _ in 0..<1000 {
                while buffer.count >= 3, buffer.count >= 3 + Int(buffer[2]) {
                    guard buffer[0] == 0x04 else { throw ProcessFailure("H4: indicator \(buffer[0]) where an event was due") }
                    let event = Event(code: buffer[1], parameters: Array(buffer[3..<3 + Int(buffer[2])]))
                    buffer.removeFirst(3 + Int(buffer[2]))
                    if wanted(event) { return event }
                }
                var chunk = [UInt8](repeating: 0, count: 1024)
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { throw ProcessFailure("H4 read: \(n == 0 ? "closed" : "errno \(errno)")") }
                buffer += chunk[0..<n]
            }
            throw ProcessFailure("H4: the awaited event did not come")
        }
    }
}
