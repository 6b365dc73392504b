import Foundation
import Hummingbird

/// What the browser loads besides the API: the UI's own files, Leaflet's when it is installed,
/// and the map tiles' settings (`GET /api/map`).
struct WebFiles: Sendable {
    var site: StaticFiles
    var leaflet: StaticFiles?
    var tiles: MapTiles?

    static let leafletMount = "/vendor/leaflet"

    init(_ config: ServeConfiguration) throws(ServeError) {
        if let root = config.webRoot {
            site = try StaticFiles(root: root)
        } else {
            site = try StaticFiles.builtIn()
        }
        tiles = config.mapTiles
        site.imageOrigins = tiles.map { [$0.origin] } ?? []
        leaflet = try config.leafletFolder.map { url throws(ServeError) in try StaticFiles(root: url, mount: Self.leafletMount) }
    }

    /// The maps draw tiles only when both Leaflet and a tile server are set.
    var map: MapJSON {
        guard let tiles, leaflet != nil else { return MapJSON(leaflet: nil, tiles: nil, attribution: nil) }
        return MapJSON(leaflet: Self.leafletMount + "/", tiles: tiles.template, attribution: tiles.attribution)
    }
}

struct MapJSON: Encodable, Sendable {
    /// Where leaflet.js and leaflet.css are; null: the maps draw offline.
    var leaflet: String?
    var tiles: String?
    var attribution: String?
}
