import ArgumentParser
import Foundation
import MeshTransport

/// `meshport plugins`: the transport drivers found on the search path, loaded or refused.
struct Plugins: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List transport drivers: loaded ones with their schemes, refused ones with the reason.",
        discussion: "Searched in order: the directory of the meshport executable (libMeshportDriver*.so), "
            + "../lib/meshport/plugins beside it, then each directory of MESHPORT_PLUGIN_PATH (colon-separated).")

    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        let search = PluginLoader.searchPath(environment: ProcessInfo.processInfo.environment)
        var loader = PluginLoader()
        loader.load(directories: search)
        if json {
            try Output.json([
                "searchPath": search.map(\.directory),
                "loaded": loader.loaded.map { d in
                    [
                        "name": d.name, "version": d.version, "path": d.path, "schemes": d.schemes,
                        "linkKind": d.linkKind.rawValue, "maxFrameSize": d.maxFrameSize,
                        "abi": d.abi, "capabilities": d.flags.names,
                    ] as [String: Any]
                },
                "refused": loader.refused.map { ["path": $0.path, "reason": $0.reason] },
            ])
            return
        }
        if loader.loaded.isEmpty {
            print("no drivers loaded (searched: \(search.map(\.directory).joined(separator: ", ")))")
        } else {
            Output.table(["driver", "version", "schemes", "link", "max frame", "capabilities", "path"], loader.loaded.map {
                [$0.name, $0.version, $0.schemes.joined(separator: ","), $0.linkKind.rawValue, "\($0.maxFrameSize)",
                 $0.flags.isEmpty ? "-" : $0.flags.names.joined(separator: ", "), $0.path]
            })
        }
        if !loader.refused.isEmpty {
            print("")
            Output.table(["refused", "reason"], loader.refused.map { [$0.path, $0.reason] })
        }
    }
}
