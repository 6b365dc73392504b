import Foundation
import NIOCore
import PostgresNIO

/// The statements behind the region routes (Docs/region.md, "Reading"). Each page is keyset:
/// `before` is the last row of the previous page, never an offset, so a page costs the same
/// however deep it is.
enum RegionQueries {
    static func summary() -> PostgresQuery {
        """
        SELECT (SELECT count(*) FROM observers), (SELECT count(*) FROM nodes), (SELECT count(*) FROM logical_packets),
               (SELECT coalesce(sum(observation_count), 0) FROM logical_packets), (SELECT max(last_seen) FROM logical_packets)
        """
    }

    /// Nodes by last heard, each with the observer that heard it directly at the best SNR (kept
    /// on the node's row: RegionMigrations.v3NodeBest), so a page is one range of `nodes_seen`.
    /// The order mixes directions (time down, key up), so no row comparison fits the index; the
    /// `last_seen <=` term gives `nodes_seen` a start for a deep page, which would otherwise be
    /// found by reading every newer node first (Tools/Benchmarks/Region/query_bench.py).
    static func nodes(before: RegionCursor?, limit: Int) -> PostgresQuery {
        let at = before?.time ?? .distantFuture
        let key = ByteBuffer(bytes: before?.key ?? [])
        return """
            SELECT n.key, n.name, n.kind, n.latitude, n.longitude, n.first_seen, n.last_seen,
                   n.best_observer, o.name, n.best_snr, n.best_heard
            FROM nodes n
            LEFT JOIN observers o ON o.key = n.best_observer
            WHERE n.last_seen <= \(at) AND (n.last_seen < \(at) OR (n.last_seen = \(at) AND n.key > \(key)))
            ORDER BY n.last_seen DESC, n.key
            LIMIT \(limit)
            """
    }

    /// A node's own packets (its adverts) as each observer heard them, newest first.
    static func observations(of node: [UInt8], before: RegionCursor?, limit: Int) -> PostgresQuery {
        let at = before?.time ?? .distantFuture
        let id = before?.id ?? Int64.max
        return """
            SELECT ob.id, ob.observer_key, o.name, ob.heard_at, ob.snr, ob.rssi, ob.path, ob.logical_hash, ob.payload_type, ob.direction
            FROM observations ob LEFT JOIN observers o ON o.key = ob.observer_key
            WHERE ob.source_key = \(ByteBuffer(bytes: node)) AND (ob.heard_at < \(at) OR (ob.heard_at = \(at) AND ob.id < \(id)))
            ORDER BY ob.heard_at DESC, ob.id DESC
            LIMIT \(limit)
            """
    }

    /// Logical packets by last heard, with how often and by how many observers.
    static func packets(type: Int16?, before: RegionCursor?, limit: Int) -> PostgresQuery {
        let at = before?.time ?? .distantFuture
        let hash = before?.hash ?? ""
        return """
            SELECT l.hash, l.payload_type, l.first_seen, l.last_seen, l.observation_count,
                   (SELECT count(DISTINCT observer_key) FROM observations ob WHERE ob.logical_hash = l.hash),
                   (SELECT min(length) FROM packets p WHERE p.logical_hash = l.hash)
            FROM logical_packets l
            WHERE (\(type)::smallint IS NULL OR l.payload_type = \(type))
              AND (l.last_seen < \(at) OR (l.last_seen = \(at) AND l.hash < \(hash)))
            ORDER BY l.last_seen DESC, l.hash DESC
            LIMIT \(limit)
            """
    }

    static func channelMessages(channel: String?, before: RegionCursor?, limit: Int) -> PostgresQuery {
        let at = before?.time ?? .distantFuture
        let hash = before?.hash ?? ""
        return """
            SELECT logical_hash, channel_name, sender, text, sent_at, heard_at
            FROM channel_messages
            WHERE (\(channel)::text IS NULL OR channel_name = \(channel))
              AND (heard_at < \(at) OR (heard_at = \(at) AND logical_hash < \(hash)))
            ORDER BY heard_at DESC, logical_hash DESC
            LIMIT \(limit)
            """
    }

    static func observers() -> PostgresQuery {
        """
        SELECT o.key, o.region, o.name, o.model, o.firmware, o.online, o.first_seen, o.last_seen,
               (SELECT count(*) FROM observer_links l WHERE l.observer_key = o.key)
        FROM observers o
        ORDER BY o.region, o.name, o.key
        """
    }

    /// The observer-to-node pairs heard within `hours`, at most `limit`, most recent first.
    static func links(hours: Int, limit: Int) -> PostgresQuery {
        """
        SELECT observer_key, node_key, hearings, best_snr, last_snr, last_heard
        FROM observer_links
        WHERE last_heard > now() - make_interval(hours => \(Int32(clamping: hours)))
        ORDER BY last_heard DESC
        LIMIT \(limit)
        """
    }

    static func hours(_ hours: Int) -> PostgresQuery {
        """
        SELECT hour, observations, packets FROM region_hours
        WHERE hour > now() - make_interval(hours => \(Int32(clamping: hours)))
        ORDER BY hour
        """
    }
}
