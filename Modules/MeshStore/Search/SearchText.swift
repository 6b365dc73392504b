/// Word breaks for full-text search. SQLite's unicode61 tokenizer splits words at spaces,
/// which CJK text does not have and which emoji do not need; a zero-width space (a separator
/// to the tokenizer, invisible to people) around each such character makes it its own
/// token, so "日本" finds "日本語" and "🎉" finds "party🎉".
///
/// Migration v3-message-search backfilled with this function: a change to what it isolates
/// needs a new migration that re-segments the stored rows.
enum SearchText {
    static let wordBreak: Unicode.Scalar = "\u{200B}"

    static func isolates(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x11FF, 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3FFFF:
            return true  // Hangul jamo, CJK radicals/kana/ideographs, Hangul syllables, half-width kana
        case 0..<0x80:
            return false
        default:
            return s.properties.generalCategory == .otherSymbol  // emoji and other pictographs
        }
    }

    /// The text with word breaks inserted, or nil when it needs none (most messages).
    static func segmented(_ text: String) -> String? {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        var changed = false
        for s in text.unicodeScalars {
            if let p = previous, isolates(p) || isolates(s), !p.properties.isWhitespace, !s.properties.isWhitespace,
               p != wordBreak, s != wordBreak {
                out.append(wordBreak)
                changed = true
            }
            out.append(s)
            previous = s
        }
        return changed ? String(out) : nil
    }

    /// Removes the breaks `segmented` inserted (from snippets shown to people).
    static func unsegmented(_ text: String) -> String {
        guard text.unicodeScalars.contains(wordBreak) else { return text }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: text.unicodeScalars.lazy.filter { $0 != wordBreak })
        return String(out)
    }
}
