import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MeshportTestSupport

/// `meshport serve --history` on a region database, read over HTTP as the web UI reads it. Its
/// radio is an address nothing listens on: serve needs one, the region routes do not.
final class RegionReader: Sendable {
    let serve: MeshportProcess
    let base: String

    init(databaseURL: String) async throws {
        serve = try MeshportProcess(["serve", "--history", databaseURL, "--radio", "tcp://127.0.0.1:1", "--http", "127.0.0.1:0"])
        let deadline = Date().addingTimeInterval(60)
        var address: String?
        while address == nil {
            address = serve.announcedHTTP
            guard address != nil || (serve.process.isRunning && Date() < deadline) else {
                throw ProcessFailure("meshport serve --history did not say where it listens: \(serve.err.current)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        base = address ?? ""
    }

    /// The JSON object at `path`.
    func get(_ path: String) async throws -> [String: Any] {
        guard let url = URL(string: base + path) else { throw ProcessFailure("not a URL: \(base + path)") }
        let (data, response) = try await URLSession.shared.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ProcessFailure("GET \(path) answered \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }

    /// Every item of the list `key` at `path`, page after page (each page's `older` is the
    /// next one's `before`).
    func all(_ path: String, _ key: String) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var before: String?
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let cursor = before.map { separator + "before=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? ""
            let page = try await get(path + cursor)
            items += page[key] as? [[String: Any]] ?? []
            before = page["older"] as? String
        } while before != nil
        return items
    }
}
