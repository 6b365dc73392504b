import Foundation
import MeshCodec
import Testing

@testable import MeshStore

@Suite struct SearchTests {
    let alice = Fixture.key(0x11)

    func store(_ texts: [String]) async throws -> (TestStore, RadioID) {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        try await t.writer.saveContacts(radio, [Fixture.contact(alice, name: "Alice")])
        try await t.writer.saveIncoming(radio, texts.enumerated().map { Fixture.channel(0, "Bob: \($1)", at: Double($0), ts: UInt32($0)) })
        return (t, radio)
    }

    @Test("best match first: bm25 ranks the denser match above a passing mention")
    func ranking() async throws {
        let (t, radio) = try await store([
            "the weather on the ridge was fine and the antenna held up through the whole long night of testing",
            "antenna antenna: new antenna mounted",
            "nothing to see here",
        ])
        let hits = try t.reader.search(radio, SearchQuery("antenna"))
        #expect(hits.texts == ["antenna antenna: new antenna mounted",
                               "the weather on the ridge was fine and the antenna held up through the whole long night of testing"])
        #expect(hits[0].score < hits[1].score)
    }

    @Test("snippets mark every matched word and cut long texts around the match")
    func snippets() async throws {
        let long = (0..<40).map { "filler\($0)" }.joined(separator: " ") + " the summit relay is up " + (0..<40).map { "tail\($0)" }.joined(separator: " ")
        let (t, radio) = try await store([long, "Summit and summit again"])
        let hits = try t.reader.search(radio, SearchQuery("summit"))
        let short = try #require(hits.first { $0.message.text.hasPrefix("Summit") })
        #expect(short.snippet.rendered() == "[Summit] and [summit] again")
        #expect(short.snippet.parts.filter(\.isMatch).map(\.text) == ["Summit", "summit"])
        let cut = try #require(hits.first { $0.message.text == long })
        #expect(cut.snippet.text.contains("the summit relay"))
        #expect(cut.snippet.text.count < long.count && cut.snippet.text.contains("…"))
        #expect(cut.snippet.rendered(open: "<mark>", close: "</mark>").contains("<mark>summit</mark>"))
    }

    @Test("prefix queries, phrases, and all words must match")
    func queryForms() async throws {
        let (t, radio) = try await store(["repeater on the hill", "repeaters everywhere", "hill walking", "the repeat button"])
        #expect(Set(try t.reader.search(radio, SearchQuery("repeat*")).texts) == ["repeater on the hill", "repeaters everywhere", "the repeat button"])
        #expect(try t.reader.search(radio, SearchQuery("repeat")).texts == ["the repeat button"])
        #expect(try t.reader.search(radio, SearchQuery("hill repeat*")).texts == ["repeater on the hill"])
        #expect(try t.reader.search(radio, SearchQuery("\"on the hill\"")).texts == ["repeater on the hill"])
        #expect(try t.reader.search(radio, SearchQuery("\"the hill on\"")).isEmpty)
        // Sender names are searchable too.
        #expect(try t.reader.search(radio, SearchQuery("bob")).count == 4)
    }

    @Test("emoji, Cyrillic and CJK text are found, highlighted and shown without the search-only breaks")
    func unicode() async throws {
        let (t, radio) = try await store([
            "party🎉time at the summit 🎉", "Привет всем, ретранслятор работает", "東京タワーから信号が届いた", "서울에서 안녕하세요", "café naïve résumé",
        ])
        let party = try t.reader.search(radio, SearchQuery("🎉"))
        #expect(party.texts == ["party🎉time at the summit 🎉"])
        #expect(party[0].snippet.rendered() == "party[🎉]time at the summit [🎉]")
        #expect(try t.reader.search(radio, SearchQuery("party")).texts == ["party🎉time at the summit 🎉"])

        #expect(try t.reader.search(radio, SearchQuery("привет")).texts == ["Привет всем, ретранслятор работает"])
        let cyr = try t.reader.search(radio, SearchQuery("ретрансл*"))
        #expect(cyr.first?.snippet.rendered() == "Привет всем, [ретранслятор] работает")

        let cjk = try t.reader.search(radio, SearchQuery("東京"))
        #expect(cjk.texts == ["東京タワーから信号が届いた"])
        #expect(cjk[0].snippet.rendered() == "[東京]タワーから信号が届いた")
        #expect(try t.reader.search(radio, SearchQuery("信号")).first?.snippet.rendered() == "東京タワーから[信号]が届いた")
        #expect(try t.reader.search(radio, SearchQuery("号信")).isEmpty)  // a phrase, in order
        #expect(try t.reader.search(radio, SearchQuery("서울")).texts == ["서울에서 안녕하세요"])
        #expect(try t.reader.search(radio, SearchQuery("cafe resume")).texts == ["café naïve résumé"])
        #expect(try t.reader.search(radio, SearchQuery("CAFÉ")).count == 1)
    }

    @Test("FTS5 syntax typed by a person is searched for, not run; an empty query is refused")
    func hostileQueries() async throws {
        let (t, radio) = try await store(["use NEAR and AND or OR", "quote \" inside", "a (bracket) test"])
        #expect(try t.reader.search(radio, SearchQuery("AND")).texts == ["use NEAR and AND or OR"])
        #expect(try t.reader.search(radio, SearchQuery("NEAR(")).texts == ["use NEAR and AND or OR"])
        #expect(try t.reader.search(radio, SearchQuery("(bracket)")).texts == ["a (bracket) test"])
        #expect(try t.reader.search(radio, SearchQuery("body:quote")).isEmpty)
        #expect(throws: StoreError.self) { try SearchQuery("  \" * ( ) ") }
        #expect(throws: StoreError.self) { try SearchQuery("") }
    }

    @Test("deleted rows leave the index; edits reach it")
    func indexFollowsTheTable() async throws {
        let (t, radio) = try await store(["keep this", "drop this"])
        try await t.writer.archive(radio, .channel(0))
        #expect(try t.reader.search(radio, SearchQuery("this")).isEmpty)
        try await t.writer.saveIncoming(radio, [Fixture.channel(0, "Bob: this is new", at: 100, ts: 100)])
        #expect(try t.reader.search(radio, SearchQuery("this")).texts == ["this is new"])
    }

    @Test("ranking starts with the newest messages and widens until it has enough hits")
    func windowWidens() async throws {
        let texts = (0..<60).map { $0 < 5 ? "needle \($0) common" : "hay \($0) common" + ($0 >= 55 ? " common common" : "") }
        let (t, radio) = try await store(texts)
        let search = { @Sendable (q: String, limit: Int) in
            try await t.store.database.writer.read { db in try MessageSearch.run(db, radio: radio, query: SearchQuery(q), limit: limit, window: 10) }
        }
        // Only the 5 oldest messages match: the window widens 10 -> 40 -> 160 (all) to find them.
        #expect(Set(try await search("needle", 20).texts) == Set(texts.prefix(5)))
        // A common word fills the limit from the newest window, best match first.
        let common = try await search("common", 5)
        #expect(common.count == 5 && common.allSatisfy { $0.message.text.hasSuffix("common common common") })
    }
}
