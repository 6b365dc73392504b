import MeshCodec

/// Cayenne LPP records in meshcore_py's shape (§3). Values come from our `CayenneLPP` decoder.
enum LPP {
    /// meshcore_py's type names (they differ from the codec's ElectronicCats names).
    static let names: [UInt8: String] = [
        0: "digital input", 1: "digital output", 2: "analog input", 3: "analog output", 100: "generic sensor",
        101: "illuminance", 102: "presence", 103: "temperature", 104: "humidity", 113: "accelerometer", 115: "barometer",
        116: "voltage", 117: "current", 118: "frequency", 120: "percentage", 121: "altitude", 122: "load",
        125: "concentration", 128: "power", 130: "distance", 131: "energy", 132: "direction", 133: "time",
        134: "gyrometer", 135: "colour", 136: "gps", 142: "switch",
    ]

    /// Component names for multi-value types; a type not listed is a plain number (gyrometer: a list).
    static let fields: [UInt8: [String]] = [
        113: ["acc_x", "acc_y", "acc_z"], 135: ["red", "green", "blue"], 136: ["latitude", "longitude", "altitude"],
    ]

    static func name(_ code: UInt8) throws -> String {
        try require(names[code], "LPP type \(code) has no meshcore_py name")
    }

    static func value(_ r: LPPRecord) throws -> Any {
        if let keys = fields[r.type.code] {
            return Dictionary(uniqueKeysWithValues: zip(keys, r.values.map { $0 as Any }))
        }
        if r.values.count > 1 { return r.values }
        return try require(r.values.first, "LPP record without a value")
    }

    static func list(_ bytes: [UInt8]) throws -> [JSON] {
        try CayenneLPP.decode(bytes).map { ["channel": Int($0.channel), "type": try name($0.type.code), "value": try value($0)] }
    }

    /// Min/max/avg records (binary MMA reply after its 4-byte header): channel, type, then three
    /// values of that type, each decoded by the codec as a one-record LPP buffer.
    static func mma(_ bytes: [UInt8]) throws -> [JSON] {
        var r = ByteReader(bytes, frame: "MMA reply")
        var out: [JSON] = []
        while !r.isAtEnd {
            let channel = try r.u8("channel")
            let code = try r.u8("type")
            let type = try require(LPPType.named(code), "unknown LPP type \(code) in MMA reply")
            var stats: [Any] = []
            for field in ["min", "max", "avg"] {
                let record = try CayenneLPP.decode([channel, code] + r.bytes(type.size, field))
                stats.append(try value(try require(record.first, "empty MMA \(field)")))
            }
            out.append(["channel": Int(channel), "type": try name(code), "min": stats[0], "max": stats[1], "avg": stats[2]])
        }
        return out
    }
}

/// Binary-request replies the codec carries as raw bytes (Docs/protocol.md §7.5).
enum RemoteData {
    /// 7-byte entries: key prefix6 + permission byte; meshcore_py skips all-zero keys.
    static func acl(_ data: [UInt8]) throws -> [JSON] {
        var r = ByteReader(data, frame: "ACL reply")
        var out: [JSON] = []
        while r.remaining >= 7 {
            let key = try r.bytes(6, "key")
            let perm = try r.u8("permissions")
            if key.contains(where: { $0 != 0 }) { out.append(["key": hex(key), "perm": Int(perm)]) }
        }
        return out
    }

    /// i16 total, i16 returned, then per entry: key prefix, i32 seconds ago, snr×4.
    static func neighbours(_ data: [UInt8], prefixLength: Int) throws -> JSON {
        var r = ByteReader(data, frame: "neighbours reply")
        let total = try r.i16("total")
        let count = try r.i16("returned")
        var list: [JSON] = []
        for _ in 0..<max(0, Int(count)) {
            list.append(["pubkey": hex(try r.bytes(prefixLength, "prefix")), "secs_ago": Int(try r.i32("seconds ago")),
                         "snr": snr(try r.i8("snr"))])
        }
        return ["pubkey_prefix_length": prefixLength, "neighbours_count": Int(total), "results_count": Int(count), "neighbours": list]
    }
}

/// 0x88 LOG_RX_DATA: the raw on-air packet, decoded the way meshcore_py presents it (§2.3).
enum RxLog {
    static let routeNames = ["TC_FLOOD", "FLOOD", "DIRECT", "TC_DIRECT"]
    static let payloadNames = ["REQ", "RESPONSE", "TEXT_MSG", "ACK", "ADVERT", "GRP_TXT", "GRP_DATA", "ANON_REQ",
                               "PATH", "TRACE", "MULTIPART", "CONTROL"]

    static func expect(_ r: ReceivedPacket) throws -> Expectation {
        let packet = r.payload
        var p: JSON = ["snr": r.snr, "rssi": Int(r.rssi), "payload": hex(packet), "payload_length": packet.count,
                       "raw_hex": hex([UInt8(bitPattern: r.snrX4), UInt8(bitPattern: r.rssi)] + packet)]
        var absent: [String] = []
        var pr = ByteReader(packet, frame: "on-air packet")
        let header = try pr.u8("header")
        let route = Int(header & 3), type = Int((header >> 2) & 0x0F)
        if route == 0 || route == 3 { p["transport_code"] = hex(try pr.bytes(4, "transport codes")) } else { absent.append("transport_code") }
        let length = PathLength(raw: try pr.u8("path_len"))
        let path = hex(try pr.bytes(length.byteCount, "path"))
        let body = pr.rest()
        let hash = try require(AckCode(bytes: Array(SHA256.hash(body).prefix(4))), "packet hash")
        p.merge([
            "header": Int(header), "route_type": route, "route_typename": routeNames[route], "payload_type": type,
            "payload_typename": type < payloadNames.count ? payloadNames[type] : "UNK", "payload_ver": Int(header >> 6),
            "path_len": length.hopCount, "path_hash_size": length.hashSize, "path": path,
            "pkt_payload": hex(body), "pkt_hash": Int(hash.value),
        ]) { $1 }
        switch type {
        case 4: p.merge(try advert(packet)) { $1 }
        case 5:
            var b = ByteReader(body, frame: "GRP_TXT payload")
            p["chan_hash"] = hex(try b.bytes(1, "channel hash"))
            p["cipher_mac"] = hex(try b.bytes(2, "cipher MAC"))
            p["crypted"] = hex(b.rest())
        default: break
        }
        return Expectation("RX_LOG_DATA", p, attributes: ["route_type": route, "payload_type": type, "path_len": length.hopCount, "path": path],
                           absent: absent)
    }

    /// ADVERT extras, from our `AdvertPacket` and `AdvertAppData` decoders.
    static func advert(_ packet: [UInt8]) throws -> JSON {
        let adv = try AdvertPacket(decoding: packet)
        let app = try AdvertAppData(decoding: adv.appData)
        var p: JSON = ["adv_key": adv.publicKey.hex, "adv_timestamp": Int(adv.timestamp), "signature": hex(adv.signature),
                       "adv_flags": Int(try require(adv.appData.first, "advert flags")), "adv_type": Int(app.type.rawValue)]
        if let pos = app.position { p["adv_lat"] = pos.latitude; p["adv_lon"] = pos.longitude }
        if let f = app.feature1 { p["adv_feat1"] = hex(le16(f)) }
        if let f = app.feature2 { p["adv_feat2"] = hex(le16(f)) }
        if let name = app.name { p["adv_name"] = name }
        return p
    }
}
