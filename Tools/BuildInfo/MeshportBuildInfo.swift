import Foundation
import PackagePlugin

/// Gives a module `MeshportBuild.swift`: the version in the package's VERSION file and the git
/// commit the sources come from (Tools/build-info.sh writes it). A prebuild command, so it runs
/// on every build and sees a new commit; the script rewrites the file only when it changes, so
/// an unchanged commit recompiles nothing.
@main
struct MeshportBuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        return [
            .prebuildCommand(
                displayName: "Writing the version and commit of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [root.appending(path: "Tools/build-info.sh").path, root.path, output.appending(path: "MeshportBuild.swift").path],
                outputFilesDirectory: output)
        ]
    }
}
