import Foundation
import MeshportTestSupport
import Testing

/// `meshport ingest` writing over TLS: a broker, a PostgreSQL that takes TLS connections only
/// (`PostgresProcess(tls: true)`, so a worker that fell back to plain would write nothing), and
/// the worker's URL with `sslmode=verify-full`.
@Suite(.timeLimit(.minutes(2))) struct IngestTLSTests {
    @Test func aWorkerWritesEveryMessageOverVerifiedTLS() async throws {
        let broker = try await MosquittoProcess()
        let postgres = try await PostgresProcess(tls: true)
        let database = "region_tls"
        _ = try await postgres.createDatabase(database)
        guard let root = postgres.certificates?.caFile else { throw ProcessFailure("the server was started without TLS") }
        let url = "postgres://\(PostgresProcess.user)@127.0.0.1:\(postgres.port)/\(database)?sslmode=verify-full&sslrootcert=\(root)"
        let dir = TempDir()
        let worker = try MeshportProcess(["ingest", "--mqtt", broker.url(), "--postgres", url, "--workers-group", "tls",
                                          "--state", dir.path("worker"), "--client-id", "tls-worker", "--batch-ms", "50"])
        try await broker.waitForSubscription("tls-worker", to: "$share/tls/meshcore/+/+/packets")
        try await IngestTest.publish(broker, range: 0..<20)
        let stored = try await IngestTest.eventually {
            do {
                return try await postgres.query("SELECT count(*) FROM observations", database: database) == [["20"]]
            } catch {
                return false   // the schema is not there until the worker has migrated it
            }
        }
        #expect(stored, "\(worker.err.current.suffix(2000))")
    }
}
