import Foundation
import MeshCodec

// Writes the input of codec_crosscheck.py (see EXPECTED_MAPPING.md): radio->app frames built with
// our encoder plus the values our decoder reads back (in meshcore_py's vocabulary), and the bytes
// our encoder produces for each meshcore_py command method call.
// Usage: MeshportInteropExport [output.json]   (stdout without an argument)

func buildDocument() throws -> JSON {
    let fixtures = try Fixtures()
    let frames = try frameCases(fixtures).map { try $0.export() }
    let commands = try commandCases(fixtures).map { try $0.export() }
    for (kind, names) in [("frame", frames.compactMap { $0["name"] as? String }), ("command", commands.compactMap { $0["name"] as? String })] {
        let dupes = Dictionary(grouping: names, by: { $0 }).filter { $1.count > 1 }.keys.sorted()
        guard dupes.isEmpty else { throw ExportError("duplicate \(kind) case names: \(dupes.joined(separator: ", "))") }
    }
    return ["frames": frames, "commands": commands]
}

do {
    let json = try JSONSerialization.data(withJSONObject: try buildDocument(), options: [.prettyPrinted, .sortedKeys])
    if CommandLine.arguments.count > 1 {
        let path = CommandLine.arguments[1]
        do {
            try json.write(to: URL(fileURLWithPath: path))
        } catch {
            throw ExportError("cannot write \(path): \(error.localizedDescription)")
        }
    } else {
        FileHandle.standardOutput.write(json)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("MeshportInteropExport: \(error)\n".utf8))
    exit(1)
}
