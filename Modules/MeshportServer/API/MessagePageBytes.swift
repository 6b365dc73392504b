import MeshServices
import MeshJSON

/// A timeline page (`MessagePageJSON`) written through JSONBytes: the text JSONEncoder makes of
/// it, keys in sorted order and absent values left out. JSONEncoder spent about 40% of the
/// server's CPU on this, the page the web UI asks for most. MessagePageJSONTests compares the two.
enum MessagePageBytes {
    /// The page's JSON, or nil when a number in it is not finite (JSONEncoder's refusal then says which).
    static func bytes(_ page: MessagePageJSON) -> [UInt8]? {
        var json = JSONBytes(capacity: 300 * page.messages.count + 64)
        json.raw(#"{"messages":["#)
        for (index, message) in page.messages.enumerated() {
            if index > 0 { json.raw(",") }
            guard write(message, to: &json) else { return nil }
        }
        json.raw("]")
        if let older = page.older {
            json.raw(#","older":"#)
            json.string(older)
        }
        json.raw("}")
        return json.bytes
    }

    private static func write(_ m: MessageJSON, to json: inout JSONBytes) -> Bool {
        json.raw(#"{"attempt":"#)
        json.integer(m.attempt)
        if let conversation = m.conversation {
            json.raw(#","conversation":{"#)
            if let channel = conversation.channel {
                json.raw(#""channel":"#)
                json.integer(channel)
                json.raw(",")
            }
            if let key = conversation.key {
                json.raw(#""key":"#)
                json.string(key)
                json.raw(",")
            }
            json.raw(#""kind":"#)
            json.string(conversation.kind)
            json.raw("}")
        }
        json.raw(#","direction":"#)
        json.string(m.direction)
        json.optional(#","failureReason":"#, m.failureReason)
        json.raw(#","heardRepeats":"#)
        json.integer(m.heardRepeats)
        json.optional(#","hops":"#, m.hops)
        json.raw(#","id":"#)
        json.integer(m.id)
        json.optional(#","roundTripMs":"#, m.roundTripMs)
        json.optional(#","sender":"#, m.sender)
        json.optional(#","senderPrefix":"#, m.senderPrefix)
        json.raw(#","senderTimestamp":"#)
        json.integer(m.senderTimestamp)
        if let snr = m.snr {
            json.raw(#","snr":"#)
            guard json.number(snr) else { return false }
        }
        json.raw(#","status":"#)
        json.string(m.status)
        json.raw(#","text":"#)
        json.string(m.text)
        json.raw(#","timestamp":"#)
        json.string(m.timestamp)
        json.raw("}")
        return true
    }
}
