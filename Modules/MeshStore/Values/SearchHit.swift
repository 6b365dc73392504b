/// Text with the parts that matched a search marked.
public struct HighlightedText: Hashable, Sendable, CustomStringConvertible {
    public struct Part: Hashable, Sendable {
        public var text: String
        public var isMatch: Bool
    }

    public var parts: [Part]

    /// The plain text, marks removed.
    public var text: String { parts.map(\.text).joined() }

    /// The text with each match wrapped, e.g. `rendered(open: "<mark>", close: "</mark>")`.
    public func rendered(open: String = "[", close: String = "]") -> String {
        parts.map { $0.isMatch ? open + $0.text + close : $0.text }.joined()
    }

    public var description: String { rendered() }
}

/// A message that matched a search, best first.
public struct SearchHit: Hashable, Sendable {
    public var message: StoredMessage
    /// A short excerpt around the matches.
    public var snippet: HighlightedText
    /// SQLite's bm25 score: lower is better.
    public var score: Double
}
