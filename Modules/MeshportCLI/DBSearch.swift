import ArgumentParser
import Foundation
import MeshStore

/// `meshport db search`: full-text search over stored messages.
struct DBSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search messages (all words must match; \"a phrase\"; word* for a prefix).")

    @OptionGroup var options: DBOptions
    @Option(help: "The radio (a prefix of its key in hex); needed when the file holds several.") var radio: String?
    @Option(help: "At most this many results.") var limit = 20
    @Flag(help: "Print the results as JSON.") var json = false
    @Argument(help: "What to search for.") var query: [String]

    func run() async throws {
        try await reportingErrors {
            let store = try options.open()
            let radio = try options.radio(store, prefix: radio)
            let hits = try store.reader.search(radio.id, SearchQuery(query.joined(separator: " ")), limit: limit)
            let time = ISO8601DateFormatter()
            if json {
                try Output.json(hits.map { hit -> [String: Any] in
                    ["id": hit.message.id, "conversation": hit.message.conversation?.description ?? "unresolved",
                     "sender": hit.message.senderName ?? "", "timestamp": time.string(from: hit.message.timestamp),
                     "text": hit.message.text, "snippet": hit.snippet.rendered(), "score": hit.score]
                })
            } else if hits.isEmpty {
                print("no messages match")
            } else {
                Output.table(["time", "conversation", "sender", "message"], hits.map { hit in
                    [time.string(from: hit.message.timestamp), hit.message.conversation?.description ?? "unresolved",
                     hit.message.senderName ?? "-", hit.snippet.rendered()]
                })
            }
        }
    }
}
