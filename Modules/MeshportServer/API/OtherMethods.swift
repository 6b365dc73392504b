import HTTPTypes
import Hummingbird

/// Methods a known path does not take. The router alone answers them with a bare 404 "Not
/// Found", as if the path did not exist; this answers 405 with `Allow` naming the methods it
/// does take (Docs/server.md, "REST API").
extension Router where Context == APIRequestContext {
    /// The methods answered 405 where a path does not take them (any other stays 404): the
    /// registered ones but CONNECT, and QUERY. HEAD is one: no route answers it, since a HEAD
    /// of /api/backup would make a copy it never sends.
    static var otherMethods: [HTTPRequest.Method] {
        [.get, .head, .post, .put, .delete, .patch, .options, .trace] + [HTTPRequest.Method("QUERY")].compactMap { $0 }
    }

    /// Adds the 405 answers to every path routed so far; call it after the last route.
    func answerOtherMethods() {
        var taken: [String: (path: RouterPath, methods: [HTTPRequest.Method])] = [:]
        for route in routes {
            taken[route.path.description, default: (route.path, [])].methods.append(route.method)
        }
        for (path, methods) in taken.values {
            let allow = Self.otherMethods.filter { methods.contains($0) }.map(\.rawValue).joined(separator: ", ")
            for method in Self.otherMethods where !methods.contains(method) {
                on(path, method: method) { request, _ -> Response in
                    throw APIError(.methodNotAllowed, "method_not_allowed", "\(request.uri.path) does not take \(request.method); it takes \(allow)",
                                   headers: [.allow: allow])
                }
            }
        }
    }
}
