import Foundation
import MeshportTestSupport
import PostgresNIO
import Testing

@testable import MeshRegion

/// TLS to a real PostgreSQL (`PostgresProcess(tls: true)`: `ssl = on`, a certificate for
/// 127.0.0.1 from the test's own CA, `hostssl` rules only) with each `sslmode`.
@Suite(.timeLimit(.minutes(2))) struct RegionTLSTests {
    static func url(_ server: PostgresProcess, database: String, _ query: String) -> String {
        "postgres://\(PostgresProcess.user):secret@127.0.0.1:\(server.port)/\(database)?\(query)"
    }

    static func rootCertificate(_ server: PostgresProcess) throws -> String {
        guard let certificates = server.certificates else { throw ProcessFailure("the server was started without TLS") }
        return certificates.caFile
    }

    /// Whether the connection `url` makes is encrypted, as the server sees it.
    static func usesTLS(_ url: String) async throws -> Bool {
        let connection = try await RegionConnector(url: try RegionDatabaseURL(url)).connect(id: 1, logger: quiet)
        do {
            var encrypted: [Bool] = []
            for try await ssl in try await connection.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: quiet)
                .decode(Bool.self) {
                encrypted.append(ssl)
            }
            try await connection.close()
            return encrypted == [true]
        } catch {
            try await connection.close()
            throw error
        }
    }

    @Test func verifyFullWithTheCAConnectsMigratesWritesAndReadsOverTLS() async throws {
        let server = try await PostgresProcess(tls: true)
        let database = "region_tls"
        _ = try await server.createDatabase(database)
        let url = Self.url(server, database: database, "sslmode=verify-full&sslrootcert=\(try Self.rootCertificate(server))")
        let store = try await RegionStore.connect(url: url, log: { _ in })
        try await store.migrate()
        try await store.write(RegionFaultTests.batch(1))
        await store.close()
        #expect(try await server.query("SELECT count(*) FROM observations", database: database) == [["1"]])
        #expect(try await Self.usesTLS(url))
        // The read side (`serve --history`) over the same URL.
        let history = try RegionHistory(url: url)
        #expect(try await history.summary().observations == 1)
        await history.close()
    }

    @Test func verifyFullRefusesACertificateForAnotherHostWhereVerifyCAAcceptsIt() async throws {
        let server = try await PostgresProcess(tls: true, serverNames: ["DNS:db.example"])
        let database = "region_tls"
        _ = try await server.createDatabase(database)
        let root = try Self.rootCertificate(server)
        let url = Self.url(server, database: database, "sslmode=verify-full&sslrootcert=\(root)")
        let failure = await #expect(throws: RegionStoreError.self) { _ = try await RegionStore.connect(url: url, log: { _ in }) }
        guard case .tlsFailed(let named, let reason)? = failure else { Issue.record("not tlsFailed: \(String(describing: failure))"); return }
        #expect(named == "postgres://meshport@127.0.0.1:\(server.port)/region_tls?sslmode=verify-full&sslrootcert=\(root)")
        #expect(reason == "the server's certificate is not made out to the host the URL names")
        #expect(failure?.retryLater == false)
        let text = failure?.description ?? ""
        #expect(!text.contains("secret") && text.hasPrefix("TLS to the PostgreSQL server of \"postgres://meshport@127.0.0.1:"), "\(text)")
        #expect(try await Self.usesTLS(Self.url(server, database: database, "sslmode=verify-ca&sslrootcert=\(root)")))
    }

    @Test func requireConnectsWithoutACAButChecksTheChainWithOne() async throws {
        let server = try await PostgresProcess(tls: true)
        let database = "region_tls"
        _ = try await server.createDatabase(database)
        #expect(try await Self.usesTLS(Self.url(server, database: database, "sslmode=require")))
        #expect(try await Self.usesTLS(Self.url(server, database: database, "sslmode=prefer")))
        // require with a root certificate is verify-ca (libpq): a CA that did not sign the server's certificate fails.
        let stranger = try await offPool { try TestCertificates(in: TempDir()) }
        let failure = await #expect(throws: RegionStoreError.self) {
            _ = try await RegionStore.connect(url: Self.url(server, database: database, "sslmode=require&sslrootcert=\(stranger.caFile)"), log: { _ in })
        }
        guard case .tlsFailed(_, let reason)? = failure else { Issue.record("not tlsFailed: \(String(describing: failure))"); return }
        #expect(reason.contains("CERTIFICATE_VERIFY_FAILED"), "\(reason)")
    }

    @Test func disableIsRefusedByAServerThatTakesOnlyTLS() async throws {
        let server = try await PostgresProcess(tls: true)
        let database = "region_tls"
        _ = try await server.createDatabase(database)
        let failure = await #expect(throws: RegionStoreError.self) {
            _ = try await RegionStore.connect(url: Self.url(server, database: database, "sslmode=disable"), log: { _ in })
        }
        guard case .refused(let named, let reason)? = failure else { Issue.record("not refused: \(String(describing: failure))"); return }
        #expect(named == "postgres://meshport@127.0.0.1:\(server.port)/region_tls?sslmode=disable")
        #expect(reason.contains("no encryption") && reason.contains("SQLSTATE 28000"), "\(reason)")
        #expect(failure?.retryLater == false)
        #expect(failure?.description.contains("pg_hba.conf") == true)
    }

    @Test func aClientCertificateLogsInWhereTheServerAsksForOne() async throws {
        let server = try await PostgresProcess(tls: true)
        let database = PostgresProcess.clientCertificateDatabase
        _ = try await server.createDatabase(database)
        let root = try Self.rootCertificate(server)
        guard let client = server.clientCertificate else { throw ProcessFailure("no client certificate") }
        let without = await #expect(throws: RegionStoreError.self) {
            _ = try await RegionStore.connect(url: Self.url(server, database: database, "sslmode=verify-full&sslrootcert=\(root)"), log: { _ in })
        }
        guard case .refused? = without else { Issue.record("not refused: \(String(describing: without))"); return }
        let url = Self.url(server, database: database, "sslmode=verify-full&sslrootcert=\(root)&sslcert=\(client.certificate)&sslkey=\(client.key)")
        let store = try await RegionStore.connect(url: url, log: { _ in })
        try await store.migrate()
        await store.close()
    }

    @Test func requireFailsAgainstAServerWithoutTLSWherePreferConnectsPlain() async throws {
        let server = try await PostgresProcess()
        let database = "region_plain"
        _ = try await server.createDatabase(database)
        let failure = await #expect(throws: RegionStoreError.self) {
            _ = try await RegionStore.connect(url: Self.url(server, database: database, "sslmode=require"), log: { _ in })
        }
        #expect(failure == .tlsFailed(url: "postgres://meshport@127.0.0.1:\(server.port)/region_plain?sslmode=require",
                                      reason: "the server does not offer TLS"))
        #expect(try await Self.usesTLS(Self.url(server, database: database, "sslmode=prefer")) == false)
    }
}
