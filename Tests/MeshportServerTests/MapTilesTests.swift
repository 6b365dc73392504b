import Foundation
import MeshportTestSupport
import Testing

@testable import MeshportServer

/// The maps' tiles (Docs/web-ui.md "Maps"): the tile URL's rules, Leaflet's files under
/// /vendor/leaflet/, GET /api/map and the pages' image policy.
@Suite(.timeLimit(.minutes(2))) struct MapTilesTests {
    @Test func aTileURLNeedsHTTPAFixedHostAndTheTileNumbers() throws {
        let tiles = try MapTiles(template: "http://127.0.0.1:8081/tiles/{z}/{x}/{y}.png", attribution: "local")
        #expect(tiles.origin == "http://127.0.0.1:8081")
        #expect(MapTiles.openStreetMap.origin == "https://tile.openstreetmap.org")
        let refused: [(String, String)] = [
            ("ftp://tiles.example/{z}/{x}/{y}.png", "http://"),
            ("https://{s}.tiles.example/{z}/{x}/{y}.png", "fixed host"),
            ("https://tiles.example/{z}/{y}.png", "lacks {x}"),
            ("https://tiles.example/{z}/{x}/{y}.png?k='a'", "quote"),
            ("tiles.example/{z}/{x}/{y}.png", "http://"),
        ]
        for (template, reason) in refused {
            #expect {
                try MapTiles(template: template, attribution: "")
            } throws: { error in
                "\(error)".contains(reason) && "\(error)".contains(template)
            }
        }
    }

    @Test func leafletIsServedAndTheMapSettingsSayWhere() async throws {
        let leaflet = TempDir()
        try Data("window.L = {};\n".utf8).write(to: leaflet.url.appendingPathComponent("leaflet.js"))
        try Data(".leaflet-container {}\n".utf8).write(to: leaflet.url.appendingPathComponent("leaflet.css"))
        let world = try await ServerWorld(serveArguments: ["--leaflet", leaflet.url.path, "--map-tiles", "http://127.0.0.1:9/{z}/{x}/{y}.png"])

        let map = try await world.get("/api/map").object
        #expect(map["leaflet"] as? String == "/vendor/leaflet/")
        #expect(map["tiles"] as? String == "http://127.0.0.1:9/{z}/{x}/{y}.png")
        let script = try await world.get("/vendor/leaflet/leaflet.js")
        #expect(script.status == 200 && script.header("Content-Type")?.hasPrefix("text/javascript") == true, "\(script)")
        #expect(String(decoding: script.body, as: UTF8.self) == "window.L = {};\n")
        #expect(try await world.get("/vendor/leaflet/../index.html").status == 404)
        #expect(try await world.get("/vendor/leaflet/missing.js").status == 404)

        let page = try await world.get("/")
        let policy = try #require(page.header("Content-Security-Policy"), "\(page)")
        #expect(policy.contains("img-src 'self' data: http://127.0.0.1:9;"), "\(policy)")
        #expect(policy.contains("script-src 'self';"), "\(policy)")
    }

    @Test func withTilesOffTheMapsDrawOfflineAndNoOtherOriginIsAllowed() async throws {
        let world = try await ServerWorld(serveArguments: ["--map-tiles", "off"])
        #expect(try await world.get("/api/map").object.isEmpty)
        let policy = try await world.get("/").header("Content-Security-Policy") ?? ""
        #expect(policy.contains("img-src 'self' data:;"), "\(policy)")
    }

    @Test func aLeafletFolderWithoutLeafletIsRefusedAtStart() async throws {
        let dir = TempDir()
        let refused = try await runMeshport(["serve", "--radio", "tcp://127.0.0.1:1", "--db", dir.path(), "--leaflet", dir.url.path])
        #expect(refused.status == 64 && refused.err.contains("no leaflet.js"), "\(refused.status) \(refused.err)")
        let badTiles = try await runMeshport(["serve", "--radio", "tcp://127.0.0.1:1", "--db", dir.path(), "--map-tiles", "tiles.example"])
        #expect(badTiles.status == 64 && badTiles.err.contains("map tiles tiles.example"), "\(badTiles.status) \(badTiles.err)")
    }
}
