import Foundation
import MeshportTestSupport
import Testing

/// The region routes' edges (the answers themselves are checked against Docs/openapi.json by
/// APIContractTests, on a written region).
@Suite(.timeLimit(.minutes(2))) struct RegionRoutesTests {
    @Test func withoutHistoryTheRegionRoutesSaySo() async throws {
        let world = try await ServerWorld()
        #expect(try await world.get("/api/server").object["regionHistory"] as? Bool == false)
        for path in ["/api/region/summary", "/api/region/nodes", "/api/region/links"] {
            let reply = try await world.get(path)
            #expect(reply.status == 404 && reply.errorCode == "region_off", "\(path): \(reply)")
        }
    }

    @Test func aBadHistoryURLIsRefusedAtStart() async throws {
        let dir = TempDir()
        let refused = try await runMeshport(["serve", "--radio", "tcp://127.0.0.1:1", "--db", dir.path(), "--history", "mysql://nowhere"])
        #expect(refused.status == 64 && refused.err.contains("--history") && refused.err.contains("mysql://nowhere"), "\(refused.status) \(refused.err)")
    }
}
