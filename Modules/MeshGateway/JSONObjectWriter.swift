import MeshJSON

/// A JSON object written field by field, in the order given (JSONBytes). The packet message is
/// written for every heard packet, so it skips JSONEncoder's boxing and key sorting: its caller
/// gives the keys in sorted order (PacketMessage.swift), and the golden tests hold the bytes to
/// JSONEncoder's.
struct JSONObjectWriter {
    private var json: JSONBytes
    private var first = true

    init(capacity: Int) {
        json = JSONBytes(capacity: capacity)
        json.raw("{")
    }

    /// `key` must need no escaping (the message's own field names).
    mutating func field(_ key: StaticString, _ value: String) {
        json.raw(first ? "\"" : ",\"")
        first = false
        json.raw(key)
        json.raw("\":")
        json.string(value)
    }

    mutating func finish() -> [UInt8] {
        json.raw("}")
        return json.bytes
    }
}
