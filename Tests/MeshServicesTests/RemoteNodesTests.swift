import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// RemoteNodes against the default mesh's repeaters, room server and sensor (MeshSim, its
/// clock running fast), with a real store: logins, status, telemetry, keep-alives, room posts.
@Suite(.timeLimit(.minutes(1))) struct RemoteNodesTests {
    static let room = "Town Square", north = "Repeater North", south = "Repeater South", sensor = "Weather Station"

    @Test func loginIsSavedAndAnnounced() async throws {
        try await ServiceHarness.with(pumping: true) { h in
            let room = try h.node(Self.room)
            let events = h.context.events.subscribe()
            let remote = RemoteNodes(context: h.context, timeouts: .patient)
            let login = try await remote.login(room.publicKey, password: DefaultMesh.roomPassword)
            #expect(login.role == .room && login.permission == 2 && !login.isAdmin && login.firmwareLevel == 1)
            let sessions = try h.store.reader.savedLogins(h.context.radio)
            #expect(sessions.map(\.node) == [room.publicKey] && sessions.first?.isConnected == true && sessions.first?.permission == 2)
            for await event in events {
                if case let .remote(.loggedIn(key, isAdmin, permission)) = event {
                    #expect(key == room.publicKey && !isAdmin && permission == 2)
                    break
                }
            }
            await remote.stopAllKeepAlives()
        }
    }

    @Test func binaryRequestsAndPathDiscoveryAreAnswered() async throws {
        try await ServiceHarness.with(pumping: true) { h in
            let north = try h.node(Self.north)
            let remote = RemoteNodes(context: h.context, timeouts: .patient, keepAliveInterval: .seconds(3600))
            try await remote.login(north.publicKey, password: DefaultMesh.adminPassword)
            let status = try await remote.binaryRequest(north.publicKey, [0x01])
            #expect(!status.isEmpty)
            let found = try await remote.discoverPath(north.publicKey)
            #expect(found.prefix.matches(north.publicKey))
            await remote.stopAllKeepAlives()
        }
    }

    @Test func loginFailIsAWrongPasswordError() async throws {
        var state = DefaultMesh.state(seed: 8)
        let key = try #require(state.nodes.values.first { $0.name == Self.north }?.publicKey)
        state.nodes[key]?.server?.answersRefusedLogins = true
        try await ServiceHarness.with(state, pumping: true) { h in
            let remote = RemoteNodes(context: h.context, timeouts: .patient)
            let label = "\(Self.north) (\(key.prefix(6).hex))"
            await #expect(throws: RemoteError.wrongPassword(node: label)) { try await remote.login(key, password: "nope") }
            let sessions = try h.store.reader.savedLogins(h.context.radio)
            #expect(sessions.isEmpty)
        }
    }

    @Test func silenceIsANoAnswerErrorNamingTheNode() async throws {
        try await ServiceHarness.with(pumping: true) { h in
            let north = try h.node(Self.north)
            // v1.17.1 servers do not answer a wrong password; a short limit keeps the test fast.
            let remote = RemoteNodes(context: h.context, timeouts: RemoteTimeouts(base: .milliseconds(300), perHop: .milliseconds(100), suggestionFactor: 0))
            do {
                try await remote.login(north.publicKey, password: "wrong")
                Issue.record("a wrong password logged in")
            } catch let error as RemoteError {
                guard case let .noAnswer(request, node, _, _) = error else { Issue.record("\(error)"); return }
                #expect(request == "login" && node.contains(Self.north) && "\(error)".contains(Self.north))
            }
        }
    }

    @Test func anUnknownNodeIsNamedAsNotAContact() async throws {
        try await ServiceHarness.with { h in
            let stranger = try #require(PublicKey([UInt8](repeating: 0x42, count: 32)))
            let remote = RemoteNodes(context: h.context, timeouts: .patient)
            await #expect(throws: RemoteError.unknownContact(stranger, url: "sim://radio")) { try await remote.login(stranger, password: "x") }
            await #expect(throws: RemoteError.unknownContact(stranger, url: "sim://radio")) { try await remote.status(stranger) }
        }
    }

    @Test func logoutStopsTheKeepAliveAndMarksTheSession() async throws {
        try await ServiceHarness.with(pumping: true) { h in
            let room = try h.node(Self.room)
            let remote = RemoteNodes(context: h.context, timeouts: .patient)
            try await remote.login(room.publicKey, password: DefaultMesh.roomPassword)
            #expect(await remote.loggedIn == [room.publicKey])
            try await remote.logout(room.publicKey)
            let loggedIn = await remote.loggedIn
            #expect(loggedIn.isEmpty)
            #expect(try h.store.reader.savedLogins(h.context.radio).first?.isConnected == false)
            #expect(h.link.sent.contains(.logout(room.publicKey)))
        }
    }

    @Test func statusIsRecordedAsAStatsSample() async throws {
        try await ServiceHarness.with(pumping: true) { h in
            let north = try h.node(Self.north)
            let remote = RemoteNodes(context: h.context, timeouts: .patient)
            try await remote.login(north.publicKey, password: DefaultMesh.adminPassword)
            let status = try await remote.status(north.publicKey)
            #expect(status.uptimeSeconds > 0 && status.batteryMillivolts > 0 && status.receiveErrors == 3)
            try await h.store.coalescer.flush(.explicit)
            let rows = try h.store.reader.stats(h.context.radio, node: north.publicKey)
            #expect(rows.count == 1 && rows.first?.uptimeSeconds == Int(status.uptimeSeconds))
            await remote.stopAllKeepAlives()
        }
    }

    @Test func telemetryIsDecodedAndRecorded() async throws {
        try await ServiceHarness.with(pumping: true) { h in
            let sensor = try h.node(Self.sensor)
            let remote = RemoteNodes(context: h.context, timeouts: .patient)
            try await remote.login(sensor.publicKey, password: DefaultMesh.adminPassword)
            let records = try await remote.telemetry(sensor.publicKey)
            #expect(records.first?.type == .voltage && records.contains { $0.type == .humidity && $0.values == [81] })
            try await h.store.coalescer.flush(.explicit)
            #expect(try h.store.reader.telemetry(h.context.radio, node: sensor.publicKey).count == records.count)
            #expect(try h.store.reader.positions(h.context.radio, node: sensor.publicKey).first?.source == .telemetry)
            await remote.stopAllKeepAlives()
        }
    }

    @Test func concurrentRequestsAreEachAnswered() async throws {
        try await ServiceHarness.with(pumping: true) { h in
            let (north, south) = (try h.node(Self.north).publicKey, try h.node(Self.south).publicKey)
            let remote = RemoteNodes(context: h.context, timeouts: .patient)
            // Unserialised, the second request would drop the radio's matcher for the first.
            async let a = remote.login(north, password: DefaultMesh.adminPassword)
            async let b = remote.login(south, password: DefaultMesh.adminPassword)
            let (first, second) = try await (a, b)
            #expect(first.node == north && second.node == south && first.isAdmin && second.isAdmin)
            async let x = remote.status(north)
            async let y = remote.status(south)
            let statuses = try await [x, y]
            #expect(statuses.count == 2)
            try await h.store.coalescer.flush(.explicit)
            #expect(try h.store.reader.stats(h.context.radio, node: north).count == 1)
            #expect(try h.store.reader.stats(h.context.radio, node: south).count == 1)
            await remote.stopAllKeepAlives()
        }
    }

    @Test func keepAlivesGoToALoggedInNodeOnADirectRoute() async throws {
        try await ServiceHarness.with(pumping: true) { h in
            let room = try h.node(Self.room)
            #expect(!room.outPath.length.isNone, "the default mesh knows the room's path")
            let remote = RemoteNodes(context: h.context, timeouts: .patient, keepAliveInterval: .milliseconds(20))
            try await remote.login(room.publicKey, password: DefaultMesh.roomPassword)
            let keepAlive = Command.sendBinaryRequest(room.publicKey, data: [0x02])
            for _ in 0..<500 where h.link.sent.filter({ $0 == keepAlive }).count < 2 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(h.link.sent.filter { $0 == keepAlive }.count >= 2)
            try await remote.logout(room.publicKey)
            let loggedIn = await remote.loggedIn
            #expect(loggedIn.isEmpty)
        }
    }

    @Test func rememberedPasswordsLogInAgain() async throws {
        try await ServiceHarness.with(pumping: true) { h in
            let room = try h.node(Self.room)
            let vault = PasswordVault(path: h.dir.path("secrets/passwords.json"))
            let remote = RemoteNodes(context: h.context, vault: vault, timeouts: .patient)
            try await remote.login(room.publicKey, password: DefaultMesh.roomPassword, remember: true)
            #expect(try vault.password(for: room.publicKey) == DefaultMesh.roomPassword)
            #expect(try await remote.login(room.publicKey).permission == 2)
            let north = try h.node(Self.north)
            await #expect(throws: RemoteError.noRememberedPassword(node: "\(Self.north) (\(north.publicKey.prefix(6).hex))")) {
                try await remote.login(north.publicKey)
            }
            await #expect(throws: RemoteError.noPasswordVault) {
                try await RemoteNodes(context: h.context, timeouts: .patient).login(room.publicKey, password: "x", remember: true)
            }
            await remote.stopAllKeepAlives()
        }
    }
}
