import Foundation
import MeshCodec

/// Translates a frame *as our decoder read it* into meshcore_py's event names, keys and units
/// (EXPECTED_MAPPING.md §2-§3). Every value comes from the decoded Swift value; where meshcore_py
/// is known to deviate, the spec-correct value is written and KNOWN_FLAWS covers the difference.
enum Vocabulary {
    static func expect(_ frame: RadioFrame, _ state: ReaderState) throws -> Expectation {
        switch frame {
        case let .response(r): try response(r, state)
        case let .push(p): try push(p, state)
        }
    }

    // MARK: Responses (§2.2)

    static func response(_ r: Response, _ state: ReaderState) throws -> Expectation {
        switch r {
        case let .ok(value):
            var e = Expectation("OK")
            e.set("value", value.map { Int($0) })
            return e
        case let .error(err):
            var e = Expectation("ERROR")
            e.set("error_code", err.code.map { Int($0) })
            e.set("code_string", errorName(err))
            return e
        case .contactsStart:
            return .none
        case let .contact(c):
            return Expectation("NEXT_CONTACT", contact(c))
        case let .endOfContacts(lastmod):
            let all = Dictionary(state.contacts.map { ($0.publicKey.hex, contact($0) as Any) }, uniquingKeysWith: { $1 })
            return Expectation("CONTACTS", all, attributes: ["lastmod": Int(lastmod)])
        case let .selfInfo(s):
            return Expectation("SELF_INFO", [
                "adv_type": Int(s.advertType.rawValue), "tx_power": Int(s.txPower), "max_tx_power": Int(s.maxTxPower),
                "public_key": s.publicKey.hex, "adv_lat": s.position.latitude, "adv_lon": s.position.longitude,
                "multi_acks": Int(s.multiAcks), "adv_loc_policy": Int(s.advertLocationPolicy),
                "telemetry_mode_base": Int(s.telemetryModes.base), "telemetry_mode_loc": Int(s.telemetryModes.location),
                "telemetry_mode_env": Int(s.telemetryModes.environment), "manual_add_contacts": s.manualAddContacts != 0,
                "radio_freq": s.radio.frequencyMHz, "radio_bw": s.radio.bandwidthKHz,
                "radio_sf": Int(s.radio.spreadingFactor), "radio_cr": Int(s.radio.codingRate), "name": s.name,
            ])
        case let .sent(s):
            let p: JSON = ["type": s.flood ? 1 : 0, "expected_ack": s.ackCode.hex, "suggested_timeout": Int(s.suggestedTimeoutMs)]
            return Expectation("MSG_SENT", p, attributes: ["type": s.flood ? 1 : 0, "expected_ack": s.ackCode.hex])
        case let .contactMessage(m):
            var e = Expectation("CONTACT_MSG_RECV", [
                "type": "PRIV", "pubkey_prefix": m.senderPrefix.hex, "txt_type": Int(m.textType.rawValue),
                "sender_timestamp": Int(m.senderTimestamp), "text": m.text,
            ].merging(messagePath(m.pathLength)) { $1 }, attributes: ["pubkey_prefix": m.senderPrefix.hex, "txt_type": Int(m.textType.rawValue)])
            e.set("SNR", m.format == .v3 ? snr(m.snrX4) : nil)
            e.set("signature", m.authorPrefix?.hex)
            return e
        case let .channelMessage(m):
            var e = Expectation("CHANNEL_MSG_RECV", [
                "type": "CHAN", "channel_idx": Int(m.channelIndex), "txt_type": Int(m.textType.rawValue),
                "sender_timestamp": Int(m.senderTimestamp), "text": m.text,
            ].merging(messagePath(m.pathLength)) { $1 }, attributes: ["channel_idx": Int(m.channelIndex), "txt_type": Int(m.textType.rawValue)])
            e.set("SNR", m.format == .v3 ? snr(m.snrX4) : nil)
            return e
        case let .currentTime(t):
            return Expectation("CURRENT_TIME", ["time": Int(t)])
        case .noMoreMessages:
            return Expectation("NO_MORE_MSGS", ["messages_available": false])
        case let .exportContact(advert):
            return Expectation("CONTACT_URI", ["uri": AdvertPacket.uriScheme + hex(advert)])
        case let .batteryAndStorage(b):
            var e = Expectation("BATTERY", ["level": Int(b.millivolts)])
            e.set("used_kb", b.storageUsedKiB.map { Int($0) })
            e.set("total_kb", b.storageTotalKiB.map { Int($0) })
            return e
        case let .deviceInfo(d):
            return deviceInfo(d)
        case let .privateKey(k):
            return Expectation("PRIVATE_KEY", ["private_key": hex(k)])
        case .disabled:
            return Expectation("DISABLED", ["reason": "private_key_export_disabled"])
        case let .channelInfo(c):
            let p: JSON = ["channel_idx": Int(c.index), "channel_name": c.name, "channel_secret": c.secret.hex,
                           "channel_hash": hex([c.secret.channelHash])]
            return Expectation("CHANNEL_INFO", p, attributes: p)
        case let .signStart(max):
            return Expectation("SIGN_START", ["max_length": Int(max)])
        case let .signature(s):
            return Expectation("SIGNATURE", ["signature": hex(s)])
        case let .customVars(vars):
            return Expectation("CUSTOM_VARS", Dictionary(vars.map { ($0.name, $0.value as Any) }, uniquingKeysWith: { $1 }))
        case let .advertPath(a):
            return Expectation("ADVERT_PATH", ["timestamp": Int(a.heardAt), "path": hex(a.path.bytes)].merging(contactPath(a.path.length)) { $1 })
        case let .tuningParams(rx, af):
            return Expectation("TUNING_PARAMS", ["rx_delay": Int(rx), "airtime_factor": Int(af)])
        case let .stats(s):
            return stats(s)
        case let .autoAddConfig(c):
            var e = Expectation("AUTOADD_CONFIG", ["config": Int(c.bitmask)])
            e.set("max_hops", c.maxHops.map { Int($0) })
            e.attributes = e.payload
            return e
        case let .allowedRepeatFreq(ranges):
            // meshcore_py reads pairs until one contains 0 (the firmware never sends such a pair).
            let listed = ranges.prefix { $0.lowerKHz != 0 && $0.upperKHz != 0 }
            return Expectation("ALLOWED_REPEAT_FREQ", ["freqs": listed.map { ["min": Int($0.lowerKHz), "max": Int($0.upperKHz)] }])
        case let .channelData(m):
            let p: JSON = ["type": "DATA", "SNR": snr(m.snrX4), "channel_idx": Int(m.channelIndex), "data_type": Int(m.dataType),
                           "data_len": m.data.count, "payload": hex(m.data)]
            return Expectation("CHANNEL_DATA_RECV", p.merging(messagePath(m.pathLength)) { $1 },
                               attributes: ["channel_idx": Int(m.channelIndex), "data_type": Int(m.dataType)])
        case let .defaultFloodScope(scope):
            var e = Expectation("DEFAULT_FLOOD_SCOPE")
            e.set("scope_name", scope?.name)
            e.set("scope_key", scope.map { hex($0.key) })
            return e
        case let .unknown(code, _):
            throw ExportError("response 0x\(hex([code])) has no meshcore_py event")
        }
    }

    static func errorName(_ e: RadioError) -> String? {
        switch e {
        case .unsupportedCommand: "ERR_CODE_UNSUPPORTED_CMD"
        case .notFound: "ERR_CODE_NOT_FOUND"
        case .tableFull: "ERR_CODE_TABLE_FULL"
        case .badState: "ERR_CODE_BAD_STATE"
        case .fileIOError: "ERR_CODE_FILE_IO_ERROR"
        case .illegalArgument: "ERR_CODE_ILLEGAL_ARG"
        case .unspecified, .other: nil
        }
    }

    /// §2.1: also the argument meshcore_py's `add_contact`/`update_contact` take.
    static func contact(_ c: Contact) -> JSON {
        [
            "public_key": c.publicKey.hex, "type": Int(c.type.rawValue), "flags": Int(c.flags.rawValue),
            "out_path": hex(c.outPath.length.hopCount > 0 ? c.outPath.bytes : []), "adv_name": c.name,
            "last_advert": Int(c.lastAdvert), "adv_lat": c.position.latitude, "adv_lon": c.position.longitude,
            "lastmod": Int(c.lastModified),
        ].merging(contactPath(c.outPath.length).mapKeys { "out_" + $0 }) { $1 }
    }

    /// Contacts and advert paths: no path is -1 / -1.
    static func contactPath(_ l: PathLength) -> JSON {
        ["path_len": l.isNone ? -1 : l.hopCount, "path_hash_mode": l.isNone ? -1 : l.hashSize - 1]
    }

    /// Message and channel-data frames: "arrived direct" (0xFF) is 255 / -1.
    static func messagePath(_ l: PathLength) -> JSON {
        ["path_len": l.isNone ? 255 : l.hopCount, "path_hash_mode": l.isNone ? -1 : l.hashSize - 1]
    }

    static func deviceInfo(_ d: DeviceInfo) -> Expectation {
        var e = Expectation("DEVICE_INFO", ["fw ver": Int(d.protocolVersion)])
        // meshcore_py reads the v3+ layout only; older frames give just "fw ver".
        let v3 = d.protocolVersion >= 3
        e.set("max_contacts", v3 ? d.maxContacts : nil)
        e.set("max_channels", v3 ? d.maxChannels.map { Int($0) } : nil)
        e.set("ble_pin", v3 ? d.blePin.map { Int($0) } : nil)
        e.set("fw_build", v3 ? d.buildDate : nil)
        e.set("model", v3 ? d.manufacturer : nil)
        e.set("ver", v3 ? d.firmwareVersion : nil)
        e.set("repeat", d.clientRepeat)
        e.set("path_hash_mode", d.pathHashMode.map { Int($0) })
        return e
    }

    static func stats(_ s: Stats) -> Expectation {
        switch s {
        case let .core(c):
            return Expectation("STATS_CORE", ["battery_mv": Int(c.batteryMillivolts), "uptime_secs": Int(c.uptimeSeconds),
                                              "errors": Int(c.errorFlags), "queue_len": Int(c.queueLength)])
        case let .radio(r):
            return Expectation("STATS_RADIO", ["noise_floor": Int(r.noiseFloor), "last_rssi": Int(r.lastRSSI), "last_snr": r.lastSNR,
                                               "tx_air_secs": Int(r.txAirtimeSeconds), "rx_air_secs": Int(r.rxAirtimeSeconds)])
        case let .packets(p):
            return Expectation("STATS_PACKETS", [
                "recv": Int(p.received), "sent": Int(p.sent), "flood_tx": Int(p.sentFlood), "direct_tx": Int(p.sentDirect),
                "flood_rx": Int(p.receivedFlood), "direct_rx": Int(p.receivedDirect),
                "recv_errors": p.receiveErrors.map { Int($0) as Any } ?? NSNull(),
            ])
        }
    }

    // MARK: Pushes (§2.3)

    static func push(_ p: Push, _ state: ReaderState) throws -> Expectation {
        switch p {
        case let .advert(k):
            return Expectation("ADVERTISEMENT", ["public_key": k.hex], attributes: ["public_key": k.hex])
        case let .pathUpdated(k):
            return Expectation("PATH_UPDATE", ["public_key": k.hex], attributes: ["public_key": k.hex])
        case let .sendConfirmed(ack, rtt):
            return Expectation("ACK", ["code": ack.hex, "trip_time": Int(rtt)], attributes: ["code": ack.hex])
        case .messageWaiting:
            return Expectation("MESSAGES_WAITING")
        case let .rawData(r):
            return Expectation("RAW_DATA", ["SNR": r.snr, "RSSI": Int(r.rssi), "payload": hex(r.payload)])
        case let .loginSuccess(s):
            var e = Expectation("LOGIN_SUCCESS", ["permissions": Int(s.permissions), "is_admin": s.permissions & 1 != 0,
                                                  "pubkey_prefix": s.serverPrefix.hex], attributes: ["pubkey_prefix": s.serverPrefix.hex])
            e.set("server_timestamp", s.serverTimestamp.map { Int($0) })
            e.set("acl_permissions", s.aclPermissions.map { Int($0) })
            e.set("fw_ver_level", s.firmwareLevel.map { Int($0) })
            return e
        case let .loginFail(prefix):
            return Expectation("LOGIN_FAILED", ["pubkey_prefix": prefix.hex], attributes: ["pubkey_prefix": prefix.hex])
        case let .statusResponse(prefix, blob):
            // meshcore_py drops a status push whose blob is not a repeater status (< 52 bytes).
            guard let status = RepeaterStatus(blob: blob) else { return .none }
            return Expectation("STATUS_RESPONSE", statusFields(status).merging(["pubkey_pre": prefix.hex]) { $1 },
                               attributes: ["pubkey_prefix": prefix.hex])
        case let .logRxData(r):
            return try RxLog.expect(r)
        case let .traceData(t):
            var path: [JSON] = zip(t.hops, t.hopSNRx4).map { ["hash": hex($0), "snr": snr($1)] }
            path.append(["snr": snr(t.finalSNRx4)])
            return Expectation("TRACE_DATA", ["tag": Int(t.tag), "auth": Int(t.authCode), "flags": Int(t.flags),
                                              "path_len": t.hops.count, "path": path],
                               attributes: ["tag": Int(t.tag), "auth_code": Int(t.authCode)])
        case let .newAdvert(c):
            return Expectation("NEW_CONTACT", contact(c))
        case let .telemetryResponse(prefix, lpp):
            return Expectation("TELEMETRY_RESPONSE", ["pubkey_pre": prefix.hex, "lpp": try LPP.list(lpp)],
                               attributes: ["pubkey_prefix": prefix.hex, "raw": hex(lpp)])
        case let .binaryResponse(tag, data):
            return try binary(tag, data, state.pending)
        case let .pathDiscoveryResponse(r):
            var p: JSON = ["pubkey_pre": r.prefix.hex]
            for (name, path) in [("out", r.outPath), ("in", r.inPath)] {
                p["\(name)_path_len"] = path.length.hopCount
                p["\(name)_path_hash_len"] = path.length.hashSize
                p["\(name)_path"] = hex(path.bytes)
            }
            return Expectation("PATH_RESPONSE", p, attributes: ["pubkey_pre": r.prefix.hex])
        case let .controlData(c):
            return try control(c)
        case let .contactDeleted(k):
            return Expectation("CONTACT_DELETED", ["pubkey": k.hex], attributes: ["pubkey": k.hex])
        case .contactsFull:
            return Expectation("CONTACTS_FULL")
        case let .unknown(code, _):
            throw ExportError("push 0x\(hex([code])) has no meshcore_py event")
        }
    }

    static func statusFields(_ s: RepeaterStatus) -> JSON {
        [
            "bat": Int(s.batteryMillivolts), "tx_queue_len": Int(s.txQueueLength), "noise_floor": Int(s.noiseFloor),
            "last_rssi": Int(s.lastRSSI), "nb_recv": Int(s.packetsReceived), "nb_sent": Int(s.packetsSent),
            "airtime": Int(s.airtimeSeconds), "uptime": Int(s.uptimeSeconds), "sent_flood": Int(s.sentFlood),
            "sent_direct": Int(s.sentDirect), "recv_flood": Int(s.receivedFlood), "recv_direct": Int(s.receivedDirect),
            "full_evts": Int(s.fullEvents), "last_snr": s.lastSNR, "direct_dups": Int(s.directDuplicates),
            "flood_dups": Int(s.floodDuplicates), "rx_airtime": Int(s.rxAirtimeSeconds),
            "recv_errors": s.receiveErrors.map { Int($0) as Any } ?? NSNull(),
        ]
    }

    /// 0x8C: always BINARY_RESPONSE; a typed event follows when the tag was registered.
    static func binary(_ tag: AckCode, _ data: [UInt8], _ pending: PendingBinary?) throws -> Expectation {
        let generic = Expectation("BINARY_RESPONSE", ["tag": tag.hex, "data": hex(data)], attributes: ["tag": tag.hex])
        guard let pending, pending.tag == tag else { return generic }
        let ids: JSON = ["tag": tag.hex, "pubkey_prefix": pending.prefix.hex]
        var typed = Expectation(pending.kind.event, ids, attributes: ids, events: ["BINARY_RESPONSE", pending.kind.event])
        switch pending.kind {
        case .STATUS:
            guard let status = RepeaterStatus(blob: data) else { return generic }
            typed.payload = statusFields(status).merging(["pubkey_pre": pending.prefix.hex]) { $1 }
        case .TELEMETRY:
            typed.payload["lpp"] = try LPP.list(data)
        case .MMA:
            typed.payload["mma_data"] = try LPP.mma(Array(data.dropFirst(4)))
        case .ACL:
            typed.payload["acl_data"] = try RemoteData.acl(data)
        case .NEIGHBOURS:
            typed.payload.merge(try RemoteData.neighbours(data, prefixLength: pending.neighbourPrefixLength)) { $1 }
        }
        return typed
    }

    /// 0x8E; node-discover responses (type 0x9n) also produce DISCOVER_RESPONSE.
    static func control(_ c: ReceivedPacket) throws -> Expectation {
        guard let type = c.payload.first else { return .none }
        let common: JSON = ["SNR": c.snr, "RSSI": Int(c.rssi), "path_len": Int(c.extra ?? 0)]
        let plain = Expectation("CONTROL_DATA", common.merging(["payload_type": Int(type), "payload": hex(c.payload)]) { $1 },
                                attributes: ["payload_type": Int(type)])
        guard type & 0xF0 == 0x90 else { return plain }
        var r = ByteReader(c.payload, frame: "discover response", offset: 1)
        let snrIn = try r.i8("SNR in")
        let tag = try r.bytes(4, "tag")
        let rest = r.rest()
        let key = hex(rest.prefix(rest.count >= 32 ? 32 : 8))
        let p = common.merging(["node_type": Int(type & 0x0F), "SNR_in": snr(snrIn), "tag": hex(tag), "pubkey": key]) { $1 }
        return Expectation("DISCOVER_RESPONSE", p, attributes: ["node_type": Int(type & 0x0F), "tag": hex(tag), "pubkey": key],
                           events: ["CONTROL_DATA", "DISCOVER_RESPONSE"])
    }
}

extension Dictionary where Key == String {
    func mapKeys(_ f: (String) -> String) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: map { (f($0.key), $0.value) })
    }
}
