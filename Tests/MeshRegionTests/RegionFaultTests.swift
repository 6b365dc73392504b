import Foundation
import MeshportTestSupport
import Testing

@testable import MeshRegion

/// Typed errors: the database away (retry later) against a bad batch (give it up).
@Suite struct RegionFaultTests {
    static func batch(_ byte: UInt8, at: Date = Sample.time()) -> RegionBatch {
        RegionBatch(hearings: Sample.hearings(Sample.textPacket("message \(byte)", sender: "Dan", sentAt: at), by: [byte], at: at))
    }

    @Test("PostgreSQL stopped: the write fails as 'away, retry later'; restarted: the next write works")
    func stoppedAndRestarted() async throws {
        let db = try await RegionDatabase.make()
        try await db.store.write(Self.batch(1))
        try await db.server.stop()
        let failure = await #expect(throws: RegionStoreError.self) { try await db.store.write(Self.batch(2)) }
        #expect(failure?.retryLater == true, "\(String(describing: failure))")
        #expect(failure?.description.contains("127.0.0.1:\(db.server.port)") == true, "\(String(describing: failure))")
        try await db.server.start()
        try await db.store.write(Self.batch(2))
        #expect(try await db.count("observations") == 2)
    }

    @Test("PostgreSQL killed with SIGKILL mid-run: 'retry later', then the same batch is written once after the restart")
    func killedAndRestarted() async throws {
        let db = try await RegionDatabase.make()
        try await db.store.write(Self.batch(1))
        await db.server.kill9()
        let failure = await #expect(throws: RegionStoreError.self) { try await db.store.write(Self.batch(2)) }
        #expect(failure?.retryLater == true, "\(String(describing: failure))")
        try await db.server.start()
        try await db.store.write(Self.batch(2))
        try await db.store.write(Self.batch(2))
        #expect(try await db.count("observations") == 2)
    }

    // A connection can hang with no error (a server or NAT gone without closing it): the
    // frozen server stands for that. Without the limit the writes below would wait forever.
    @Test("PostgreSQL frozen (SIGSTOP): writes fail as 'retry later' after the answer limit, their connections dropped; thawed: the next write works",
          .timeLimit(.minutes(2)))
    func frozenServer() async throws {
        let db = try await RegionDatabase.make(answerLimit: .seconds(2))
        try await db.store.write(Self.batch(1))
        db.server.freeze()
        defer { db.server.thaw() }
        // The batch's connection gets no answer and is dropped; the one more try on a new
        // connection gets none either (the kernel completes the TCP connection, nothing
        // answers its start-up). So does the next write.
        for attempt in 1...2 {
            let failure = await #expect(throws: RegionStoreError.self) { try await db.store.write(Self.batch(2)) }
            #expect(failure?.retryLater == true, "attempt \(attempt): \(String(describing: failure))")
            #expect(failure?.description.contains("127.0.0.1:\(db.server.port) cannot be reached (no answer within 2.0 seconds)") == true,
                    "attempt \(attempt): \(String(describing: failure))")
        }
        db.server.thaw()
        try await db.store.write(Self.batch(2))
        #expect(try await db.count("observations") == 2)
    }

    @Test("a key of the wrong length fails the batch with a typed error naming it, and writes nothing")
    func wrongKeyLength() async throws {
        let db = try await RegionDatabase.make()
        var batch = Self.batch(1)
        batch.hearings.append(Hearing(observerKey: [UInt8](repeating: 7, count: 31), region: "AMS", heardAt: Sample.time(), direction: .rx, raw: [1, 2, 3]))
        await #expect(throws: RegionStoreError.badBatch(reason: "hearing 2: the observer key is 31 bytes long, not 32")) {
            try await db.store.write(batch)
        }
        #expect(RegionStoreError.badBatch(reason: "").retryLater == false)
        #expect(try await db.count("observations") == 0)
        #expect(try await db.count("packets") == 0)
    }

    @Test("a time PostgreSQL cannot hold fails the batch with a typed error naming it")
    func timeOutOfRange() async throws {
        let db = try await RegionDatabase.make()
        // A node whose clock says the year 318857.
        let advert = Sample.advertPacket(node: 0xD4, name: "Far", latitude: nil, longitude: nil, advertisedAt: Date(timeIntervalSince1970: 1e13))
        await #expect(throws: RegionStoreError.badBatch(reason: "hearing 1: the advert's time (10000000000000.0 s since 1970) is outside the years 1 to 9999")) {
            try await db.store.write(RegionBatch(hearings: Sample.hearings(advert, by: [1], at: Sample.time())))
        }
        #expect(try await db.count("observations") == 0)
    }

    @Test("a value the database refuses fails the batch as bad, with the database's reason")
    func refusedByTheDatabase() async throws {
        let db = try await RegionDatabase.make()
        // An SNR beyond what a `real` column holds.
        var hearings = Self.batch(1).hearings
        hearings[0].snr = 1e300
        let failure = await #expect(throws: RegionStoreError.self) { try await db.store.write(RegionBatch(hearings: hearings)) }
        #expect(failure?.retryLater == false, "\(String(describing: failure))")
        guard case .badBatch(let reason)? = failure else { Issue.record("not a bad batch: \(String(describing: failure))"); return }
        #expect(reason.contains("SQLSTATE 22003"), "\(reason)")
        // The connection is still good for the next batch.
        try await db.store.write(Self.batch(1))
        #expect(try await db.count("observations") == 1)
    }

    @Test("nothing listening: connect fails as unreachable at host:port; a bad URL says what is wrong")
    func unreachableAndBadURL() async throws {
        let port = try freeLoopbackPort()
        let failure = await #expect(throws: RegionStoreError.self) {
            _ = try await RegionStore.connect(url: "postgres://meshport@127.0.0.1:\(port)/region", log: { _ in })
        }
        guard case .unreachable(let server, _)? = failure else { Issue.record("not unreachable: \(String(describing: failure))"); return }
        #expect(server == "127.0.0.1:\(port)")
        #expect(failure?.retryLater == true)
        await #expect(throws: RegionStoreError.invalidURL(url: "mysql://u@h/db", reason: "the scheme must be postgres:// (found \"mysql\")")) {
            _ = try await RegionStore.connect(url: "mysql://u@h/db", log: { _ in })
        }
        await #expect(throws: RegionStoreError.invalidURL(url: "postgres://u:***@h/", reason: "the path must be one database name (postgres://user@host/DATABASE)")) {
            _ = try await RegionStore.connect(url: "postgres://u:secret@h/", log: { _ in })
        }
    }
}
