import Testing

@testable import MeshUplink

@Suite struct RecentIDsTests {
    @Test func anIDIsKnownUntilCapacityNewerOnesPushItOut() {
        var recent = RecentIDs(capacity: 3)
        let steps: [(String, Bool)] = [
            ("a", true), ("b", true), ("c", true), ("a", false), ("c", false),
            ("d", true),  // forgets "a", the oldest
            ("a", true),  // forgets "b"
            ("c", false), ("d", false), ("b", true),
        ]
        for (id, new) in steps {
            let inserted = recent.insert(id)
            #expect(inserted == new, "\(id)")
        }
    }
}
