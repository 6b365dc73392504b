/// A person's search text turned into an FTS5 pattern. Terms are separated by spaces and
/// all must match; `"two words"` is a phrase; a trailing `*` makes a term a prefix query.
/// Every term is quoted, so FTS5 operators typed by a person are searched for, not run.
public struct SearchQuery: Sendable, Hashable {
    public let text: String
    /// The MATCH pattern handed to SQLite.
    public let pattern: String

    public init(_ text: String) throws(StoreError) {
        self.text = text
        var terms: [String] = []
        for raw in Self.split(text) {
            var term = raw.text
            var prefix = false
            if term.hasSuffix("*") {
                prefix = true
                while term.hasSuffix("*") { term.removeLast() }
            }
            // A term with nothing the tokenizer keeps would be an empty phrase.
            guard term.unicodeScalars.contains(where: Self.isTokenScalar) else { continue }
            let body = (SearchText.segmented(term) ?? term).replacingAll("\"", with: "\"\"")
            terms.append("\"\(body)\"" + (prefix ? "*" : ""))
        }
        guard !terms.isEmpty else {
            throw .invalidArgument(what: "search query \"\(text)\"", reason: "it has no letters, digits or symbols to search for")
        }
        pattern = terms.joined(separator: " ")
    }

    private static func isTokenScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse, .otherSymbol:
            true
        default:
            false
        }
    }

    /// Splits at whitespace, keeping double-quoted runs together as one phrase.
    private static func split(_ text: String) -> [(text: String, quoted: Bool)] {
        var out: [(String, Bool)] = []
        var current = ""
        var inQuotes = false
        func finish() {
            if !current.isEmpty { out.append((current, inQuotes)) }
            current = ""
        }
        for ch in text {
            if ch == "\"" {
                finish()
                inQuotes.toggle()
            } else if ch.isWhitespace, !inQuotes {
                finish()
            } else {
                current.append(ch)
            }
        }
        finish()
        return out
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        for ch in self { if ch == target { out += replacement } else { out.append(ch) } }
        return out
    }
}
