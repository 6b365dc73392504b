import MeshRegion
import MeshJSON

/// `GET /api/region/nodes`'s answer written through JSONBytes: the text JSONEncoder makes of
/// `RegionPageJSON` of `RegionNodeJSON` (keys in its sorted order, absent values left out), at a
/// fraction of the cost for the map's 5,000 nodes. RegionNodesJSONTests compares the two.
enum RegionNodesJSON {
    /// The page's JSON, or nil when a number in it is not finite (JSONEncoder's refusal then says which).
    static func bytes(_ nodes: [RegionNodeJSON], older: RegionCursor?) -> [UInt8]? {
        var json = JSONBytes(capacity: 400 * nodes.count + 64)
        json.raw(#"{"nodes":["#)
        for (index, node) in nodes.enumerated() {
            if index > 0 { json.raw(",") }
            guard write(node, to: &json) else { return nil }
        }
        json.raw("]")
        if let older {
            json.raw(#","older":"#)
            json.string(older.encoded)
        }
        json.raw("}")
        return json.bytes
    }

    private static func write(_ node: RegionNodeJSON, to json: inout JSONBytes) -> Bool {
        json.raw("{")
        if let best = node.best {
            json.raw(#""best":{"lastHeard":"#)
            json.string(best.lastHeard)
            json.raw(#","observer":"#)
            json.string(best.observer)
            json.optional(#","observerName":"#, best.observerName)
            if let snr = best.snr {
                json.raw(#","snr":"#)
                guard json.number(snr) else { return false }
            }
            json.raw("},")
        }
        json.raw(#""firstSeen":"#)
        json.string(node.firstSeen)
        json.raw(#","key":"#)
        json.string(node.key)
        json.raw(#","kind":"#)
        json.string(node.kind)
        json.raw(#","lastSeen":"#)
        json.string(node.lastSeen)
        if let latitude = node.latitude {
            json.raw(#","latitude":"#)
            guard json.number(latitude) else { return false }
        }
        if let longitude = node.longitude {
            json.raw(#","longitude":"#)
            guard json.number(longitude) else { return false }
        }
        json.optional(#","name":"#, node.name)
        json.raw("}")
        return true
    }
}
