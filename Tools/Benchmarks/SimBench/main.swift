import Foundation

// MeshportSimBench: frames/s a MeshSim radio serves to an in-process client, against the
// codec-only floor. Prints one JSON object for report.py (the "sim" group); progress and
// whether the goal is met go to stderr. The work runs off the main actor (see Bench.swift).
do {
    let json = try await runBench()
    print(String(decoding: json, as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("MeshportSimBench: \(error)\n".utf8))
    exit(1)
}
