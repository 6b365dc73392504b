import MeshCodec

/// What meshcore_py should emit for one frame (the `expect` object of EXPECTED_MAPPING.md §1).
struct Expectation {
    var event: String
    var payload: JSON = [:]
    var attributes: JSON?
    /// Payload keys meshcore_py must not produce.
    var absent: [String] = []
    /// The exact event sequence; nil means just `[event]`.
    var events: [String]?

    init(_ event: String, _ payload: JSON = [:], attributes: JSON? = nil, absent: [String] = [], events: [String]? = nil) {
        self.event = event
        self.payload = payload
        self.attributes = attributes
        self.absent = absent
        self.events = events
    }

    /// meshcore_py emits nothing for this frame.
    static var none: Expectation { Expectation("NONE", events: []) }

    var json: JSON {
        var j: JSON = ["event": event, "payload": payload, "events": events ?? [event]]
        if let attributes { j["attributes"] = attributes }
        if !absent.isEmpty { j["absent"] = absent }
        return j
    }

    /// Sets `key` when the value exists, otherwise lists it as absent.
    mutating func set(_ key: String, _ value: Any?) {
        if let value { payload[key] = value } else { absent.append(key) }
    }
}

/// A binary request registered with meshcore_py's reader before a 0x8C frame arrives: only
/// then does it decode the response into a typed event.
struct PendingBinary {
    enum Kind: String {
        case STATUS, TELEMETRY, MMA, ACL, NEIGHBOURS

        var event: String {
            switch self {
            case .STATUS: "STATUS_RESPONSE"
            case .TELEMETRY: "TELEMETRY_RESPONSE"
            case .MMA: "MMA_RESPONSE"
            case .ACL: "ACL_RESPONSE"
            case .NEIGHBOURS: "NEIGHBOURS_RESPONSE"
            }
        }
    }

    var kind: Kind
    var tag: AckCode
    var prefix: KeyPrefix
    /// NEIGHBOURS only: the key-prefix length the request asked for.
    var neighbourPrefixLength = 4

    var json: JSON {
        var j: JSON = ["tag": tag.hex, "request_type": kind.rawValue, "pubkey_prefix": prefix.hex]
        if kind == .NEIGHBOURS { j["context"] = ["pubkey_prefix_length": neighbourPrefixLength] }
        return j
    }
}

/// What meshcore_py's reader remembers from earlier frames (the case's `context`).
struct ReaderState {
    /// Contacts since the last CONTACTS_START, as the CONTACTS event reports them.
    var contacts: [Contact] = []
    var pending: PendingBinary?

    mutating func feed(_ frame: RadioFrame) {
        switch frame {
        case .response(.contactsStart): contacts = []
        case let .response(.contact(c)): contacts.append(c)
        default: break
        }
    }
}
