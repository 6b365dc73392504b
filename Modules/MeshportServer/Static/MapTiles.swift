import Foundation

/// The maps' base layer (Docs/web-ui.md, "Maps"): raster tiles drawn by Leaflet when the browser
/// reaches the tile server and Leaflet's files are here; the offline drawing otherwise.
public struct MapTiles: Sendable, Equatable {
    /// OpenStreetMap's standard tiles, whose policy asks for the attribution below.
    public static let openStreetMap = MapTiles(checked: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
                                               attribution: "© OpenStreetMap contributors", origin: "https://tile.openstreetmap.org")
    /// Where Debian's `libjs-leaflet` puts Leaflet.
    public static let debianLeaflet = URL(fileURLWithPath: "/usr/share/javascript/leaflet")

    /// A tile URL with `{z}`, `{x}` and `{y}` (and optionally `{s}`) where Leaflet puts the tile's numbers.
    public let template: String
    public let attribution: String
    /// `scheme://host[:port]` of the template, the only other origin the pages may load images from.
    public let origin: String

    public init(template: String, attribution: String) throws(ServeError) {
        guard let url = URL(string: template.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, !host.contains("{")
        else { throw .mapTiles(template, reason: "it is not an http:// or https:// URL with a fixed host") }
        for field in ["{z}", "{x}", "{y}"] where !template.contains(field) {
            throw .mapTiles(template, reason: "it lacks \(field), where the tile's numbers go")
        }
        guard !template.contains(where: { $0 == " " || $0 == ";" || $0 == "'" || $0 == "\"" }) else {
            throw .mapTiles(template, reason: "it holds a space, quote or semicolon")
        }
        self.template = template
        self.attribution = attribution
        origin = "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }

    private init(checked template: String, attribution: String, origin: String) {
        self.template = template
        self.attribution = attribution
        self.origin = origin
    }

    /// Leaflet's folder when `leaflet.js` is in it.
    public static func leafletFolder(_ folder: URL) -> URL? {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("leaflet.js").path) ? folder : nil
    }
}
