import Foundation
import HTTPTypes
import Hummingbird

/// The web UI's files, served from one folder: by default the `Web` resources built into
/// meshport (Modules/MeshportServer/Web), or --web-root. No request can reach a file outside
/// it: the decoded path may not hold `..`, `.`-only, empty, NUL or backslash segments, and the
/// file found, symbolic links resolved, must still lie inside the folder.
struct StaticFiles: Sendable {
    let root: URL
    /// The URL path the folder is served under ("" for the site's root).
    let mount: String
    /// Origins besides this server's that pages may load images from (the map tiles').
    var imageOrigins: [String] = []
    /// The root with its symbolic links resolved, ending in "/".
    private let resolvedRoot: String

    /// The files a package installs beside the executable (/usr/bin/meshport and
    /// /usr/share/meshport/web, Packaging/deb), else the ones built into the binary.
    static func builtIn() throws(ServeError) -> StaticFiles {
        let executableFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = executableFolder.appendingPathComponent("../share/meshport/web").standardized
        if FileManager.default.fileExists(atPath: installed.appendingPathComponent("index.html").path) {
            return try StaticFiles(root: installed)
        }
        guard let web = Bundle.module.url(forResource: "Web", withExtension: nil) else {
            throw .webRoot("Web", reason: "the built-in web UI is missing from this build")
        }
        return try StaticFiles(root: web)
    }

    init(root: URL, mount: String = "") throws(ServeError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .webRoot(root.path, reason: "no such folder")
        }
        self.root = root
        self.mount = mount
        let resolved = root.resolvingSymlinksInPath().standardizedFileURL.path
        resolvedRoot = resolved.hasSuffix("/") ? resolved : resolved + "/"
    }

    /// Why a path is refused.
    enum Refusal: Error, Equatable {
        case malformed
        case outside
        case missing
    }

    /// The file `path` (as in the request line) names under the root; "/" is index.html.
    func file(for path: String) throws(Refusal) -> URL {
        guard var decoded = path.removingPercentEncoding else { throw .malformed }
        if !mount.isEmpty {
            guard decoded.hasPrefix(mount + "/") else { throw .missing }
            decoded.removeFirst(mount.count)
        }
        var segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if decoded == "/" || decoded.isEmpty { segments = ["index.html"] }
        for segment in segments {
            if segment.isEmpty || segment == "." || segment == ".." || segment.contains("\0") || segment.contains("\\") { throw .malformed }
        }
        let candidate = segments.reduce(root) { $0.appendingPathComponent(String($1)) }
        let resolved = candidate.resolvingSymlinksInPath().standardizedFileURL.path
        guard resolved.hasPrefix(resolvedRoot) else { throw .outside }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), !isFolder.boolValue else { throw .missing }
        return URL(fileURLWithPath: resolved)
    }

    func response(for request: Request, metrics: ServerMetrics) throws(APIError) -> Response {
        let url: URL
        do {
            url = try file(for: request.uri.path)
        } catch .missing {
            throw APIError.notFound("no file \(request.uri.path)")
        } catch {
            metrics.rejected("path")
            throw APIError.notFound("no file \(request.uri.path)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw APIError(.internalServerError, "read_error", "cannot read \(request.uri.path)")
        }
        var headers: HTTPFields = [.contentType: Self.contentType(url.pathExtension), .cacheControl: "no-cache"]
        if url.pathExtension == "html" {
            // The UI loads only its own scripts and styles and talks only to this server; images
            // may also come from the map tiles' server.
            let images = (["'self'", "data:"] + imageOrigins).joined(separator: " ")
            headers[.contentSecurityPolicy] = "default-src 'self'; img-src \(images); style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func contentType(_ ext: String) -> String {
        switch ext.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json", "webmanifest": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}

extension HTTPField.Name {
    static let contentSecurityPolicy = Self("Content-Security-Policy")!
}
