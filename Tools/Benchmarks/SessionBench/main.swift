import Foundation
import MeshTransport

// One client's session workload (Workload.swift) against one `meshport sim` over TCP:
//   MeshportSessionBench meshport|floor tcp://HOST:PORT [round trips] [contact syncs] [contacts] [messages]
// `meshport` is a RadioSession over the TCP driver plugin; `floor` a blocking socket with
// MeshCodec alone (the simulator's share). Prints one JSON object (RoundFigures); run.sh
// starts a fresh sim for each client and round and report.py compares the clients.
//   MeshportSessionBench serial serial://PTY?baud=N [contact syncs] [contacts]
// Contact sync on a paced serial line against its wire time (SerialSync.swift).

do {
    let args = CommandLine.arguments
    guard args.count >= 3, ["meshport", "floor", "serial"].contains(args[1]) else {
        throw BenchError("usage: MeshportSessionBench meshport|floor tcp://HOST:PORT [round trips] [contact syncs] [contacts] [messages]\n"
                         + "       MeshportSessionBench serial serial://PTY?baud=N [contact syncs] [contacts]")
    }
    func number(_ i: Int, _ fallback: Int) throws -> Int {
        guard args.count > i else { return fallback }
        guard let n = Int(args[i]), n >= 0 else { throw BenchError("argument \(i) must be a count, not \"\(args[i])\"") }
        return n
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    if args[1] == "serial" {
        let figures = try await SerialSync.run(try TransportURL(args[2]), syncs: try number(3, 3), contacts: try number(4, 1000))
        print(String(decoding: try encoder.encode(figures), as: UTF8.self))
        exit(0)
    }
    var workload = Workload()
    workload.roundTrips = try number(3, workload.roundTrips)
    workload.contactSyncs = try number(4, workload.contactSyncs)
    workload.contacts = try number(5, workload.contacts)
    workload.messages = try number(6, workload.messages)
    let url = try TransportURL(args[2])
    let figures: RoundFigures
    if args[1] == "meshport" {
        let client = try await SessionClient.connect(url)
        figures = try await workload.run(client, name: "meshport")
        await client.close()
    } else {
        let (host, port) = try url.hostAndPort()
        guard let port else { throw BenchError("\(args[2]): expected tcp://HOST:PORT") }
        figures = try await workload.run(try FloorClient(host: host, port: port), name: "floor")
    }
    print(String(decoding: try encoder.encode(figures), as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("MeshportSessionBench: \(error)\n".utf8))
    exit(1)
}
