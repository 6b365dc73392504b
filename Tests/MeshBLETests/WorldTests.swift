import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import MeshBLE
import MeshportTestSupport
import Testing

/// Meshport's LE host against emulated controllers (Tools/BLE/world.py): each test its own
/// world, since one holds one host. The radios echo every frame unless bridged.
@Suite(.timeLimit(.minutes(2))) struct WorldTests {
    let radio = BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .random)

    /// Counts how often the PIN was asked for (a bonded reconnect asks never).
    final class Asked: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func next() -> Int { lock.withLock { n += 1; return n } }
        var count: Int { lock.withLock { n } }
    }

    /// Runs `body` with a host on a fresh world; the host closes before the world stops.
    private func withWorld(_ arguments: [String], _ body: (BLEWorldProcess, HCIHost) async throws -> Void) async throws {
        let world = try await BLEWorldProcess(arguments)
        let host = HCIHost(transport: try openHCITransport(world.hci))
        do {
            try await host.start()
            try await body(world, host)
        } catch {
            await host.close()
            withExtendedLifetime(world) {}
            throw error
        }
        await host.close()
        withExtendedLifetime(world) {}
    }

    private func bonds() -> (BondStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-ble-\(UUID().uuidString)")
        return (BondStore(path: dir.appendingPathComponent("bonds.json").path), dir)
    }

    /// Opens the radio, checks one echo, closes.
    private func echo(_ host: HCIHost, _ security: LinkSecurity) async throws {
        let link = try await CompanionLink.open(host: host, peer: radio, security: security)
        var frames = link.frames.makeAsyncIterator()
        let frame = [UInt8](0..<176)
        try await link.send(frame)
        #expect(await frames.next() == frame)
        await link.close()
    }

    @Test func scanFindsTheRadiosAndNotTheOtherDevice() async throws {
        try await withWorld(["--peripherals", "3", "--noise"]) { world, host in
            var found: [LEScan.Found] = []
            // Each advertiser is heard every 100 ms; a few rounds make the test immune to timing.
            for _ in 0..<10 where found.filter(\.isCompanion).count < 3 || found.count < 4 {
                found = try await LEScan.scan(host, for: .milliseconds(400))
            }
            let radios = found.filter(\.isCompanion)
            #expect(Set(radios.compactMap(\.name)) == ["MeshCore-TEST", "MeshCore-TEST-2", "MeshCore-TEST-3"])
            #expect(radios.allSatisfy { $0.services.contains(.nus) && $0.rssi != nil && $0.address.isRandomStatic })
            #expect(found.contains { $0.name == "Other-Device" && !$0.isCompanion })
        }
    }

    @Test(arguments: ["sc-only", "legacy-only"])
    func pairsWithThePasskeyThenReconnectsOnTheBond(pairing: String) async throws {
        try await withWorld(["--pairing", pairing]) { world, host in
            let (store, dir) = bonds()
            defer { try? FileManager.default.removeItem(at: dir) }
            let asked = Asked()
            let security = LinkSecurity(bonds: store) { _ = asked.next(); return 123_456 }
            try await echo(host, security)
            let bond = try #require(try store.bond(for: radio))
            #expect(bond.secureConnections == (pairing == "sc-only") && bond.authenticated)
            #expect(asked.count == 1)
            // The bond encrypts the next connection: no PIN, no pairing.
            try await echo(host, security)
            #expect(asked.count == 1)
            #expect(!world.log.contains("pairing start") || world.log.components(separatedBy: "pairing start").count == 2, "\(world.log)")
        }
    }

    @Test func wrongPasskeyIsAClearError() async throws {
        try await withWorld([]) { world, host in
            do {
                try await echo(host, LinkSecurity(bonds: nil) { 111_111 })
                Issue.record("paired with a wrong PIN")
            } catch let error as SMPError {
                #expect(error == .wrongPasskey(peer: radio) || error == .peerConfirmMismatch(peer: radio))
                #expect(error.description.contains("PIN"))
            }
        }
    }

    @Test func radioRefusesJustWorks() async throws {
        try await withWorld([]) { world, host in
            let connection = try await LEConnection.connect(host: host, to: radio)
            let events = try await connection.beginSecurity()
            var config = SMPConfig(passkey: 0)
            config.ioCapability = PairingFeatures.IO.noInputNoOutput
            var smp = SMPInitiator(config: config, local: await host.ownAddress, peer: radio)
            for case let .send(pdu) in smp.start() { try await connection.sendSMP(pdu) }
            var outcome: [SMPAction] = []
            for await event in events {
                guard case let .smp(pdu) = event else { continue }
                outcome = smp.handle(pdu: pdu)
                if smp.isFinished { break }
            }
            #expect(outcome.last == .failed(.peerFailed(peer: radio, .authenticationRequirements)))
            await connection.disconnect()
        }
    }

    @Test func securityRequestStartsPairingBeforeAnyWrite() async throws {
        try await withWorld(["--security-request"]) { world, host in
            let (store, dir) = bonds()
            defer { try? FileManager.default.removeItem(at: dir) }
            let link = try await CompanionLink.open(host: host, peer: radio, security: LinkSecurity(bonds: store) { 123_456 })
            // No write: the radio's request alone makes the link paired and encrypted.
            for _ in 0..<500 where try store.bond(for: radio) == nil { try await Task.sleep(for: .milliseconds(20)) }
            #expect(await link.connection.encrypted)
            #expect(try store.bond(for: radio) != nil, "\(world.log)")
            await link.close()
        }
    }

    @Test func staleBondTellsTheUserToForgetIt() async throws {
        try await withWorld([]) { world, host in
            let (store, dir) = bonds()
            defer { try? FileManager.default.removeItem(at: dir) }
            // A bond the radio does not have (as after the radio was reset).
            try store.save(SMPBond(peer: radio, ltk: [UInt8](repeating: 0x5A, count: 16), ediv: 0, rand: 0, keySize: 16,
                                   authenticated: true, secureConnections: true))
            do {
                try await echo(host, LinkSecurity(bonds: store) { 123_456 })
                Issue.record("encrypted with a bond the radio lacks")
            } catch let error as LinkSecurityError {
                #expect(error == .staleBond(peer: radio))
                #expect(error.description.contains("meshport ble forget F0:00:00:00:00:01"))
            }
        }
    }

    @Test(arguments: ["l2cap", "ll"])
    func acceptsConnectionParameterUpdates(method: String) async throws {
        try await withWorld(["--conn-update", method]) { world, host in
            let link = try await CompanionLink.open(host: host, peer: radio, security: LinkSecurity(bonds: nil) { 123_456 })
            // The radio asks for 15-30 ms (12-24 units) once connected; the first write makes it pair.
            try await link.send([1])
            for _ in 0..<500 where await link.connection.parameterUpdates == 0 { try await Task.sleep(for: .milliseconds(20)) }
            let count = await link.connection.parameterUpdates
            let interval = await link.connection.parameters.interval
            #expect(count >= 1 && (12...24).contains(interval), "\(world.log)")
            await link.close()
        }
    }

    @Test func writeCommandsPairFirstAndCarryFrames() async throws {
        try await withWorld([]) { world, host in
            let asked = Asked()
            let link = try await CompanionLink.open(host: host, peer: radio, security: LinkSecurity(bonds: nil) { _ = asked.next(); return 123_456 },
                                                    withResponse: false)
            // Write Commands get no error back: the link was paired before the first one.
            #expect(await link.connection.encrypted && asked.count == 1)
            var frames = link.frames.makeAsyncIterator()
            for size in [1, 20, 176] {
                let frame = [UInt8](repeating: UInt8(size), count: size)
                try await link.send(frame)
                #expect(await frames.next() == frame)
            }
            await link.close()
        }
    }

    /// H4 over a serial port: socat joins a pty to the emulated controller's TCP port, as a
    /// USB-serial HCI dongle would appear.
    @Test func hostOverAUART() async throws {
        let world = try await BLEWorldProcess([])
        let dir = TempDir()
        let socat = Process()
        socat.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        socat.arguments = ["pty,raw,echo=0,link=\(dir.path("hci-uart"))", "tcp:127.0.0.1:\(world.port)"]
        try socat.run()
        // SIGKILL: socat inherits this process's blocked signals and would ignore SIGTERM.
        defer { kill(socat.processIdentifier, SIGKILL); socat.waitUntilExit() }
        for _ in 0..<250 where !FileManager.default.fileExists(atPath: dir.path("hci-uart")) { try await Task.sleep(for: .milliseconds(20)) }
        let host = HCIHost(transport: try openHCITransport("uart:\(dir.path("hci-uart"))@115200"))
        try await host.start()
        let address = await host.publicAddress
        #expect(address.description == "C0:DE:C0:DE:00:01")
        let link = try await CompanionLink.open(host: host, peer: radio, security: LinkSecurity(bonds: nil) { 123_456 })
        var frames = link.frames.makeAsyncIterator()
        try await link.send([7, 7, 7])
        #expect(await frames.next() == [7, 7, 7])
        await link.close()
        await host.close()
        withExtendedLifetime((world, dir)) {}
    }

    @Test func uartSpecErrorsSayWhatIsWrong() {
        #expect(throws: HCITransportError.self) { try openHCITransport("uart:/dev/meshport-no-such-tty") }
        #expect(throws: HCITransportError(.invalidSpec, "hci=uart:/dev/ttyS0@fast: 'fast' is not a baud rate")) { try openHCITransport("uart:/dev/ttyS0@fast") }
        #expect(throws: HCITransportError(.invalidSpec, "hci=uart:/dev/null@12345: 12345 is not a standard baud rate (115200, 460800, 1000000, ...)")) {
            try openHCITransport("uart:/dev/null@12345")
        }
    }

    /// No Bluetooth hardware here: the user channel's errors are checked as users meet them.
    @Test func userChannelErrorsSayWhatToRun() {
        let busy = HCIUserChannel.failure(EBUSY, adapter: 0, spec: "hci0")
        #expect(busy.kind == .busy && busy.description.contains("sudo btmgmt --index 0 power off"))
        // Busy and not listed by the management interface: another program holds the user channel.
        let held = HCIUserChannel.failure(EBUSY, adapter: 0, spec: "hci0", managed: false)
        #expect(held.kind == .busy && held.description.contains("another program") && !held.description.contains("btmgmt"))
        #expect(HCIUserChannel.failure(EBUSY, adapter: 0, spec: "hci0", managed: true).description.contains("in use by BlueZ"))
        #expect(HCIUserChannel.failure(EUSERS, adapter: 0, spec: "hci0").description.contains("another program"))
        let denied = HCIUserChannel.failure(EPERM, adapter: 1, spec: "hci1")
        #expect(denied.kind == .permissionDenied && denied.description.contains("setcap cap_net_admin+ep"))
        #expect(HCIUserChannel.failure(ENODEV, adapter: 3, spec: "usb:3").description.contains("no adapter hci3"))
        do {
            let t = try openHCITransport("hci0")
            t.close()  // a machine with an adapter free for the taking
        } catch {
            // Without AF_BLUETOOTH (as in CI): the kernel says so, and the error says what to do.
            #expect([.unsupported, .busy, .permissionDenied, .notFound].contains(error.kind), "\(error)")
            #expect(error.fix != nil)
        }
    }

    @Test func hostOnAClosedPortSaysWhatToStart() {
        #expect(throws: HCITransportError.self) { try openHCITransport("tcp:127.0.0.1:1") }
        #expect(throws: HCITransportError(.invalidSpec, "hci=bogus names no controller: use hci0 (BlueZ adapter 0 through the HCI user channel), tcp:HOST:PORT (an H4 emulator) or uart:/dev/ttyUSB1 (a serial HCI controller)")) {
            try openHCITransport("bogus")
        }
    }
}
