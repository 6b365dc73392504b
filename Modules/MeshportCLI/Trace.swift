import ArgumentParser
import Foundation
import MeshCodec
import MeshServices

/// `meshport trace PATH`: a trace packet along repeaters and back, with the SNR of each hop.
struct Trace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Trace a route: each repeater on it reports the SNR it heard the packet at.",
        discussion: "The route is a contact (its known path, out and back) or repeater hashes in hex, comma-separated (e.g. 68,e4,68). Exit status 3 when the trace does not come back.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "A contact with a known path, or hop hashes in hex, comma-separated.") var route: String

    /// Hop hashes typed as hex, or nil when `route` is not a hash list.
    var hashes: [UInt8]? {
        let parts = route.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.allSatisfy({ $0.count == 2 }) else { return nil }
        let bytes = parts.compactMap { Hex.decode($0)?.first }
        return bytes.count == parts.count && !bytes.isEmpty ? bytes : nil
    }

    func run() async throws {
        try await reportingRadioErrors {
            let (route, typed) = (route, hashes)
            let data = try await RadioConnection.with(options, showProgress: false) { radio -> TraceData in
                let path: [UInt8]
                if let typed {
                    path = typed
                } else {
                    let c = try await radio.contacts.resolve(route)
                    let hops = c.contact.outPath.hops.compactMap(\.first)
                    guard !c.contact.outPath.length.isNone, !hops.isEmpty else {
                        throw CLIError("\(c.name) has no known multi-hop path (\(Describe.path(c.contact.outPath))); give repeater hashes instead, e.g. `meshport trace 68,e4`")
                    }
                    path = hops + hops.dropLast().reversed()
                }
                let spinner = Spinner("tracing \(path.map { Hex.encode([$0]) }.joined(separator: ","))")
                defer { spinner.stop() }
                return try await Self.trace(path, on: radio.session, timeout: options.timeout)
            }
            let hops = zip(data.pathHashes, data.hopSNRx4).map { (Hex.encode([$0]), Double($1) / 4) }
            if options.json {
                try Output.json(["tag": Int(data.tag), "hops": hops.map { ["hash": $0.0, "snr": $0.1] }, "finalSNR": Double(data.finalSNRx4) / 4])
            } else {
                Output.table(["hop", "hash", "snr dB"], hops.enumerated().map { ["\($0.offset + 1)", $0.element.0, String(format: "%.2f", $0.element.1)] }
                    + [["back", "", String(format: "%.2f", Double(data.finalSNRx4) / 4)]])
            }
        }
    }

    /// SEND_TRACE_PATH, then the TRACE_DATA push with our tag, within the radio's suggested
    /// time (at least `timeout` seconds).
    static func trace(_ path: [UInt8], on session: RadioSession, timeout: Double) async throws -> TraceData {
        let tag = UInt32.random(in: 1...UInt32.max)
        let events = session.subscribe()
        let sent = try await session.expect(.sendTracePath(TraceRequest(tag: tag, authCode: 0, path: path))) { if case let .sent(s) = $0 { s } else { nil } }
        let seconds = max(timeout, Double(sent.suggestedTimeoutMs) / 1000 * 2)
        let found = try await withThrowingTaskGroup(of: TraceData?.self) { group in
            group.addTask {
                for await event in events {
                    if case let .push(.traceData(data)) = event, data.tag == tag { return data }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let found else {
            throw CLIError("the trace did not come back within \(Int(seconds)) s on \(session.url.text): a repeater on the route may be out of reach or not exist",
                           status: .noAnswer)
        }
        return found
    }
}
