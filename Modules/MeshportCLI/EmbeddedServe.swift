import ArgumentParser
import MeshportServer

/// `meshport serve` inside another program of this package, with routes of its own beside the
/// API's (Tests/Tools/TestServe): the same arguments, checks, messages and exit statuses.
package enum EmbeddedServe {
    package static func main(_ arguments: [String], extraRoutes: @escaping MeshportServer.ExtraRoutes) async -> Never {
        do {
            let command = try Serve.parse(arguments)
            try await command.serve(extraRoutes: extraRoutes)
            Serve.exit()
        } catch {
            Serve.exit(withError: error)
        }
    }
}
