import Foundation
import MeshCodec
import MeshStore

/// How records read on screen and in JSON, shared by the commands that show them.
enum Describe {
    /// 2025-01-31T12:00:00Z
    static func iso(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }

    /// 12:00:00, local time.
    static func clock(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    static func epoch(_ seconds: UInt32) -> String {
        seconds == 0 ? "never" : iso(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// "flood", "direct", "2 hops"
    static func path(_ path: Path) -> String {
        if path.length.isNone { return "flood" }
        let hops = path.length.hopCount
        return hops == 0 ? "direct" : "\(hops) hop\(hops == 1 ? "" : "s")"
    }

    static func contactJSON(_ c: StoredContact) -> [String: Any] {
        var out: [String: Any] = [
            "name": c.name, "key": c.publicKey.hex, "type": c.contact.type.description, "path": path(c.contact.outPath),
            "pathHops": c.contact.outPath.length.isNone ? NSNull() : c.contact.outPath.length.hopCount as Any,
            "lastAdvert": epoch(c.contact.lastAdvert), "favourite": c.isFavourite, "unread": c.unreadCount, "messages": c.messageCount,
        ]
        if !c.contact.position.isZero {
            out["latitude"] = c.contact.position.latitude
            out["longitude"] = c.contact.position.longitude
        }
        return out
    }

    static func contactRow(_ c: StoredContact) -> [String] {
        [c.name, c.contact.type.description, c.publicKey.prefix(6).hex, path(c.contact.outPath), epoch(c.contact.lastAdvert),
         c.unreadCount == 0 ? "" : "\(c.unreadCount)"]
    }
    static let contactHeader = ["name", "type", "key", "path", "last advert", "unread"]

    static func channelJSON(_ c: StoredChannel) -> [String: Any] {
        ["index": Int(c.index), "name": c.name, "kind": c.kind.rawValue, "unread": c.unreadCount, "messages": c.messageCount]
    }

    static func messageJSON(_ m: StoredMessage) -> [String: Any] {
        var out: [String: Any] = [
            "id": m.id, "direction": m.direction == .incoming ? "in" : "out", "status": m.status.description, "text": m.text,
            "timestamp": iso(m.timestamp), "conversation": m.conversation?.description ?? "unresolved",
        ]
        if let name = m.senderName { out["sender"] = name }
        if let prefix = m.senderPrefix { out["senderPrefix"] = prefix.hex }
        if let rtt = m.roundTripMs { out["roundTripMs"] = rtt }
        if m.attempt > 0 { out["attempt"] = m.attempt }
        return out
    }

    /// 5, 0.5: whole seconds without a fraction.
    static func seconds(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }

    /// Battery as volts with the millivolts.
    static func volts(_ mv: Int) -> String { String(format: "%.2f V", Double(mv) / 1000) }
}
