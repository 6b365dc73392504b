import Logging
import PostgresNIO

/// The statements that write one batch, inside the caller's transaction: one statement per
/// table, every row of it passed as column arrays to `unnest` (one round trip per table, not
/// per row). Each is idempotent: natural keys with ON CONFLICT, first/last times widened
/// only, and an observation counted only when it is new.
enum RegionWrites {
    static func write(_ rows: RegionRows, on connection: PostgresConnection, logger: Logger) async throws {
        if !rows.observers.keys.isEmpty { try await connection.query(observers(rows.observers), logger: logger) }
        if !rows.packets.hashes.isEmpty { try await connection.query(packets(rows.packets), logger: logger) }
        if !rows.observations.heardAt.isEmpty { try await connection.query(observations(rows.observations), logger: logger) }
        if !rows.nodes.keys.isEmpty { try await connection.query(nodes(rows.nodes), logger: logger) }
        if !rows.adverts.nodeKeys.isEmpty { try await connection.query(adverts(rows.adverts), logger: logger) }
        if !rows.channelMessages.logicalHashes.isEmpty { try await connection.query(channelMessages(rows.channelMessages), logger: logger) }
        if !rows.traces.logicalHashes.isEmpty { try await connection.query(traces(rows.traces), logger: logger) }
        if !rows.rejected.topics.isEmpty { try await connection.query(rejected(rows.rejected), logger: logger) }
    }

    /// A report replaces the observer's fields only when it is at least as new as the one kept.
    static func observers(_ o: RegionRows.Observers) -> PostgresQuery {
        """
        INSERT INTO observers AS o (key, region, name, model, firmware, client_version, radio, last_stats, online, first_seen, last_seen)
        SELECT key, region, name, model, firmware, client_version, radio, stats::jsonb, online, first_seen, last_seen
        FROM unnest(\(o.keys), \(o.regions), \(o.names), \(NullableArray(o.models)), \(NullableArray(o.firmwares)),
                    \(NullableArray(o.clientVersions)), \(NullableArray(o.radios)), \(NullableArray(o.stats)), \(o.online),
                    \(o.firstSeen), \(o.lastSeen))
            AS t(key, region, name, model, firmware, client_version, radio, stats, online, first_seen, last_seen)
        ON CONFLICT (key) DO UPDATE SET
            region = CASE WHEN EXCLUDED.last_seen >= o.last_seen THEN EXCLUDED.region ELSE o.region END,
            name = CASE WHEN EXCLUDED.last_seen >= o.last_seen THEN EXCLUDED.name ELSE o.name END,
            model = CASE WHEN EXCLUDED.last_seen >= o.last_seen THEN EXCLUDED.model ELSE o.model END,
            firmware = CASE WHEN EXCLUDED.last_seen >= o.last_seen THEN EXCLUDED.firmware ELSE o.firmware END,
            client_version = CASE WHEN EXCLUDED.last_seen >= o.last_seen THEN EXCLUDED.client_version ELSE o.client_version END,
            radio = CASE WHEN EXCLUDED.last_seen >= o.last_seen THEN EXCLUDED.radio ELSE o.radio END,
            last_stats = CASE WHEN EXCLUDED.last_seen >= o.last_seen THEN EXCLUDED.last_stats ELSE o.last_stats END,
            online = CASE WHEN EXCLUDED.last_seen >= o.last_seen THEN EXCLUDED.online ELSE o.online END,
            first_seen = least(o.first_seen, EXCLUDED.first_seen),
            last_seen = greatest(o.last_seen, EXCLUDED.last_seen)
        """
    }

    static func packets(_ p: RegionRows.Packets) -> PostgresQuery {
        """
        INSERT INTO packets AS p (hash, raw, length, payload_type, route, logical_hash, first_seen, last_seen)
        SELECT * FROM unnest(\(p.hashes), \(p.raws), \(p.lengths), \(NullableArray(p.payloadTypes)), \(NullableArray(p.routes)),
                             \(NullableArray(p.logicalHashes)), \(p.firstSeen), \(p.lastSeen))
        ON CONFLICT (hash) DO UPDATE SET
            first_seen = least(p.first_seen, EXCLUDED.first_seen),
            last_seen = greatest(p.last_seen, EXCLUDED.last_seen)
        WHERE EXCLUDED.first_seen < p.first_seen OR EXCLUDED.last_seen > p.last_seen
        """
    }

    /// The observations and, from those that were new, their logical packets and counts.
    static func observations(_ o: RegionRows.Observations) -> PostgresQuery {
        """
        WITH inserted AS (
            INSERT INTO observations (region, observer_key, packet_hash, logical_hash, payload_type, source_key, heard_at, direction,
                                      snr, rssi, path)
            SELECT * FROM unnest(\(o.regions), \(o.observerKeys), \(o.packetHashes), \(NullableArray(o.logicalHashes)),
                                 \(NullableArray(o.payloadTypes)), \(NullableArray(o.sourceKeys)), \(o.heardAt), \(o.directions),
                                 \(NullableArray(o.snrs)), \(NullableArray(o.rssis)), \(NullableArray(o.paths)))
            ON CONFLICT DO NOTHING
            RETURNING logical_hash, payload_type, heard_at
        ), counted AS (
            SELECT logical_hash, min(payload_type) AS payload_type, min(heard_at) AS first_seen, max(heard_at) AS last_seen,
                   count(*) AS observations
            FROM inserted WHERE logical_hash IS NOT NULL GROUP BY logical_hash
        )
        INSERT INTO logical_packets AS l (hash, payload_type, first_seen, last_seen, observation_count)
        SELECT logical_hash, payload_type, first_seen, last_seen, observations FROM counted ORDER BY logical_hash
        ON CONFLICT (hash) DO UPDATE SET
            observation_count = l.observation_count + EXCLUDED.observation_count,
            first_seen = least(l.first_seen, EXCLUDED.first_seen),
            last_seen = greatest(l.last_seen, EXCLUDED.last_seen)
        """
    }

    /// Name and kind follow the newest advert, the position the newest advert that had one.
    /// The best observer is the node's best link as this statement sees it (the observations
    /// before it updated the links), or the one kept, whichever ranks first: another worker may
    /// have committed a better link after this statement's snapshot, and its own upsert of the
    /// node then left that on the row. Twice the same observer is one link seen twice: its
    /// best SNR and last hearing only grow.
    static func nodes(_ n: RegionRows.Nodes) -> PostgresQuery {
        """
        INSERT INTO nodes AS n (key, name, kind, latitude, longitude, position_at, first_seen, last_seen, last_advert,
                                best_observer, best_snr, best_heard)
        SELECT t.*, b.observer_key, b.best_snr, b.last_heard
        FROM unnest(\(n.keys), \(NullableArray(n.names)), \(n.kinds), \(NullableArray(n.latitudes)),
                    \(NullableArray(n.longitudes)), \(NullableArray(n.positionAt)), \(n.firstSeen), \(n.lastSeen), \(n.lastAdvert))
            AS t(key, name, kind, latitude, longitude, position_at, first_seen, last_seen, last_advert)
        LEFT JOIN LATERAL region_best_link(t.key) b ON true
        ON CONFLICT (key) DO UPDATE SET
            name = CASE WHEN EXCLUDED.last_advert >= n.last_advert THEN coalesce(EXCLUDED.name, n.name) ELSE n.name END,
            kind = CASE WHEN EXCLUDED.last_advert >= n.last_advert THEN EXCLUDED.kind ELSE n.kind END,
            latitude = CASE WHEN EXCLUDED.position_at >= coalesce(n.position_at, '-infinity') THEN EXCLUDED.latitude ELSE n.latitude END,
            longitude = CASE WHEN EXCLUDED.position_at >= coalesce(n.position_at, '-infinity') THEN EXCLUDED.longitude ELSE n.longitude END,
            position_at = greatest(n.position_at, EXCLUDED.position_at),
            first_seen = least(n.first_seen, EXCLUDED.first_seen),
            last_seen = greatest(n.last_seen, EXCLUDED.last_seen),
            last_advert = greatest(n.last_advert, EXCLUDED.last_advert),
            (best_observer, best_snr, best_heard) = (
                SELECT observer, max(snr), max(heard)
                FROM (VALUES (n.best_observer, n.best_snr, n.best_heard), (EXCLUDED.best_observer, EXCLUDED.best_snr, EXCLUDED.best_heard))
                    AS c(observer, snr, heard)
                WHERE observer IS NOT NULL
                GROUP BY observer ORDER BY max(snr) DESC NULLS LAST, observer LIMIT 1)
        """
    }

    /// One row per advert (node and its own timestamp), kept with the first time it was heard.
    static func adverts(_ a: RegionRows.Adverts) -> PostgresQuery {
        """
        INSERT INTO node_adverts AS a (node_key, advertised_at, name, kind, latitude, longitude, logical_hash, heard_at)
        SELECT * FROM unnest(\(a.nodeKeys), \(a.advertisedAt), \(NullableArray(a.names)), \(a.kinds), \(NullableArray(a.latitudes)),
                             \(NullableArray(a.longitudes)), \(a.logicalHashes), \(a.heardAt))
        ON CONFLICT (node_key, advertised_at) DO UPDATE SET heard_at = EXCLUDED.heard_at, logical_hash = EXCLUDED.logical_hash
        WHERE EXCLUDED.heard_at < a.heard_at
        """
    }

    static func channelMessages(_ c: RegionRows.ChannelMessages) -> PostgresQuery {
        """
        INSERT INTO channel_messages AS c (logical_hash, region, channel_name, channel_hash, sender, text, sent_at, heard_at)
        SELECT * FROM unnest(\(c.logicalHashes), \(c.regions), \(c.channelNames), \(c.channelHashes), \(NullableArray(c.senders)),
                             \(c.texts), \(c.sentAt), \(c.heardAt))
        ON CONFLICT (logical_hash) DO UPDATE SET heard_at = EXCLUDED.heard_at, region = EXCLUDED.region
        WHERE EXCLUDED.heard_at < c.heard_at
        """
    }

    static func traces(_ t: RegionRows.Traces) -> PostgresQuery {
        """
        INSERT INTO trace_events AS t (logical_hash, region, tag, hops, hop_snrs, heard_at)
        SELECT logical_hash, region, tag, hops, hop_snrs::double precision[], heard_at
        FROM unnest(\(t.logicalHashes), \(t.regions), \(t.tags), \(t.hops), \(t.hopSNRs), \(t.heardAt))
            AS u(logical_hash, region, tag, hops, hop_snrs, heard_at)
        ON CONFLICT (logical_hash) DO UPDATE SET heard_at = EXCLUDED.heard_at, region = EXCLUDED.region
        WHERE EXCLUDED.heard_at < t.heard_at
        """
    }

    /// A redelivered rejected message (same topic and payload) is kept once.
    static func rejected(_ r: RegionRows.Rejected) -> PostgresQuery {
        """
        INSERT INTO rejected_messages (topic, payload_hash, payload, reason, received_at)
        SELECT topic, sha256(payload), payload, reason, received_at
        FROM unnest(\(r.topics), \(r.payloads), \(r.reasons), \(r.receivedAt)) AS u(topic, payload, reason, received_at)
        ON CONFLICT DO NOTHING
        """
    }
}
