/// The last `capacity` command ids, oldest forgotten first.
struct RecentIDs: Sendable {
    let capacity: Int
    private var order: [String] = []
    private var next = 0
    private var known: Set<String> = []

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Remembers `id`; false when it is already among the remembered ones.
    mutating func insert(_ id: String) -> Bool {
        guard !known.contains(id) else { return false }
        if order.count < capacity {
            order.append(id)
        } else {
            known.remove(order[next])
            order[next] = id
            next = (next + 1) % capacity
        }
        known.insert(id)
        return true
    }
}
