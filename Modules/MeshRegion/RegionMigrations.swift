/// One named step of the region schema. Once shipped it is never edited or removed: a database
/// migrated by an earlier release must still migrate. A change is a new migration appended at
/// the end, with its schema fixture (Tests/Fixtures/region-schema/NAME.sql).
struct RegionMigration: Sendable {
    let name: String
    /// Run in order, in the migration's one transaction (the extended protocol takes one
    /// statement per query).
    let statements: [String]
}

enum RegionMigrations {
    static let all: [RegionMigration] = [v1Region, v2Links, v3NodeBest]

    static var names: [String] { all.map(\.name) }

    /// The table recording which migrations ran; made before the first one, and no migration of its own.
    static let ledger = """
        CREATE TABLE IF NOT EXISTS region_migrations (
            name text PRIMARY KEY,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """

    // Keys are bytea (32 bytes), the MeshCore packet hash is its 16 upper-case hex characters,
    // times are timestamptz. Only observations (one row per hearing) grows with traffic; it is
    // partitioned by day (RegionPartitions.swift). The other tables hold one row per distinct
    // thing and are trimmed row by row past the retention setting.
    static let v1Region = RegionMigration(name: "v1-region", statements: [
        """
        CREATE TABLE observers (
            key bytea PRIMARY KEY CHECK (length(key) = 32),
            region text NOT NULL,
            name text NOT NULL,
            model text,
            firmware text,
            client_version text,
            radio text,
            last_stats jsonb,
            online boolean NOT NULL,
            first_seen timestamptz NOT NULL,
            last_seen timestamptz NOT NULL
        )
        """,
        "CREATE INDEX observers_region_seen ON observers (region, last_seen DESC, key)",
        """
        CREATE TABLE packets (
            hash bytea PRIMARY KEY CHECK (length(hash) = 32),
            raw bytea NOT NULL,
            length integer NOT NULL,
            payload_type smallint,
            route smallint,
            logical_hash text,
            first_seen timestamptz NOT NULL,
            last_seen timestamptz NOT NULL
        )
        """,
        "CREATE INDEX packets_logical ON packets (logical_hash) WHERE logical_hash IS NOT NULL",
        """
        CREATE TABLE logical_packets (
            hash text PRIMARY KEY CHECK (hash ~ '^[0-9A-F]{16}$'),
            payload_type smallint NOT NULL,
            first_seen timestamptz NOT NULL,
            last_seen timestamptz NOT NULL,
            observation_count integer NOT NULL
        )
        """,
        "CREATE INDEX logical_packets_seen ON logical_packets (last_seen DESC, hash DESC)",
        // A sequence rather than an identity column: PostgreSQL 15 has none on partitioned tables.
        "CREATE SEQUENCE observation_ids",
        """
        CREATE TABLE observations (
            id bigint NOT NULL DEFAULT nextval('observation_ids'),
            region text NOT NULL,
            observer_key bytea NOT NULL CHECK (length(observer_key) = 32),
            packet_hash bytea NOT NULL CHECK (length(packet_hash) = 32),
            logical_hash text,
            payload_type smallint,
            source_key bytea,
            heard_at timestamptz NOT NULL,
            direction text NOT NULL CHECK (direction IN ('rx', 'tx')),
            snr real,
            rssi integer,
            path bytea,
            UNIQUE (heard_at, observer_key, packet_hash)
        ) PARTITION BY RANGE (heard_at)
        """,
        "ALTER SEQUENCE observation_ids OWNED BY observations.id",
        "CREATE INDEX observations_region_page ON observations (region, heard_at DESC, id DESC)",
        "CREATE INDEX observations_observer_page ON observations (observer_key, heard_at DESC, id DESC)",
        "CREATE INDEX observations_source_page ON observations (source_key, heard_at DESC, id DESC) WHERE source_key IS NOT NULL",
        "CREATE INDEX observations_logical ON observations (logical_hash) WHERE logical_hash IS NOT NULL",
        // Two workers may need the same day at once: the advisory lock makes one create it.
        """
        CREATE FUNCTION region_observation_partition(day date) RETURNS text LANGUAGE plpgsql AS $$
        DECLARE
            partition text := 'observations_' || to_char(day, 'YYYYMMDD');
        BEGIN
            PERFORM pg_advisory_xact_lock(hashtext('region_observation_partition'));
            IF to_regclass(partition) IS NULL THEN
                EXECUTE format('CREATE TABLE %I PARTITION OF observations FOR VALUES FROM (%L) TO (%L)',
                               partition, day::timestamp AT TIME ZONE 'UTC', (day + 1)::timestamp AT TIME ZONE 'UTC');
            END IF;
            RETURN partition;
        END
        $$
        """,
        """
        CREATE TABLE nodes (
            key bytea PRIMARY KEY CHECK (length(key) = 32),
            name text,
            kind text NOT NULL,
            latitude double precision,
            longitude double precision,
            position_at timestamptz,
            first_seen timestamptz NOT NULL,
            last_seen timestamptz NOT NULL,
            last_advert timestamptz NOT NULL
        )
        """,
        "CREATE INDEX nodes_seen ON nodes (last_seen DESC, key)",
        """
        CREATE TABLE node_adverts (
            node_key bytea NOT NULL CHECK (length(node_key) = 32),
            advertised_at timestamptz NOT NULL,
            name text,
            kind text NOT NULL,
            latitude double precision,
            longitude double precision,
            logical_hash text NOT NULL,
            heard_at timestamptz NOT NULL,
            PRIMARY KEY (node_key, advertised_at)
        )
        """,
        """
        CREATE TABLE channel_messages (
            logical_hash text PRIMARY KEY,
            region text NOT NULL,
            channel_name text NOT NULL,
            channel_hash smallint NOT NULL,
            sender text,
            text text NOT NULL,
            sent_at timestamptz NOT NULL,
            heard_at timestamptz NOT NULL
        )
        """,
        "CREATE INDEX channel_messages_page ON channel_messages (channel_name, heard_at DESC, logical_hash DESC)",
        """
        CREATE TABLE trace_events (
            logical_hash text PRIMARY KEY,
            region text NOT NULL,
            tag bigint NOT NULL,
            hops bytea NOT NULL,
            hop_snrs double precision[] NOT NULL,
            heard_at timestamptz NOT NULL
        )
        """,
        // A redelivered message is the same topic and payload: kept once.
        """
        CREATE TABLE rejected_messages (
            topic text NOT NULL,
            payload_hash bytea NOT NULL,
            payload bytea NOT NULL,
            reason text NOT NULL,
            received_at timestamptz NOT NULL,
            PRIMARY KEY (topic, payload_hash)
        )
        """,
        """
        CREATE VIEW rejected_reasons AS
            SELECT reason, count(*) AS messages, max(received_at) AS last_received
            FROM rejected_messages GROUP BY reason
        """,
    ])

    // Who hears whom: an observer hearing a node's advert with an empty path heard the node
    // itself. Kept per pair, with the hearings per hour, by a trigger on the rows an insert
    // really added (ON CONFLICT skips never reach it), so the writer stays one statement per
    // table and a redelivered batch changes nothing here either.
    static let v2Links = RegionMigration(name: "v2-links-and-hours", statements: [
        """
        CREATE TABLE observer_links (
            observer_key bytea NOT NULL CHECK (length(observer_key) = 32),
            node_key bytea NOT NULL CHECK (length(node_key) = 32),
            hearings bigint NOT NULL,
            best_snr real,
            last_snr real,
            first_heard timestamptz NOT NULL,
            last_heard timestamptz NOT NULL,
            PRIMARY KEY (observer_key, node_key)
        )
        """,
        "CREATE INDEX observer_links_node_best ON observer_links (node_key, best_snr DESC NULLS LAST)",
        """
        CREATE TABLE region_hours (
            hour timestamptz PRIMARY KEY,
            observations bigint NOT NULL,
            packets bigint NOT NULL
        )
        """,
        """
        CREATE FUNCTION region_observations_added() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO observer_links AS l (observer_key, node_key, hearings, best_snr, last_snr, first_heard, last_heard)
            SELECT observer_key, source_key, count(*), max(snr), (array_agg(snr ORDER BY heard_at DESC))[1], min(heard_at), max(heard_at)
            FROM added
            WHERE source_key IS NOT NULL AND direction = 'rx' AND coalesce(length(path), 0) = 0
            GROUP BY observer_key, source_key ORDER BY observer_key, source_key
            ON CONFLICT (observer_key, node_key) DO UPDATE SET
                hearings = l.hearings + EXCLUDED.hearings,
                best_snr = greatest(l.best_snr, EXCLUDED.best_snr),
                last_snr = CASE WHEN EXCLUDED.last_heard >= l.last_heard THEN EXCLUDED.last_snr ELSE l.last_snr END,
                first_heard = least(l.first_heard, EXCLUDED.first_heard),
                last_heard = greatest(l.last_heard, EXCLUDED.last_heard);
            INSERT INTO region_hours AS h (hour, observations, packets)
            SELECT date_trunc('hour', heard_at, 'UTC'), count(*), 0 FROM added GROUP BY 1 ORDER BY 1
            ON CONFLICT (hour) DO UPDATE SET observations = h.observations + EXCLUDED.observations;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER observations_added AFTER INSERT ON observations
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION region_observations_added()
        """,
        """
        CREATE FUNCTION region_logical_packets_added() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO region_hours AS h (hour, observations, packets)
            SELECT date_trunc('hour', first_seen, 'UTC'), 0, count(*) FROM added GROUP BY 1 ORDER BY 1
            ON CONFLICT (hour) DO UPDATE SET packets = h.packets + EXCLUDED.packets;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER logical_packets_added AFTER INSERT ON logical_packets
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION region_logical_packets_added()
        """,
    ])

    // Each node's best observer on its own row, so the Region view's map reads one index range
    // of nodes with no probe of `observer_links` per node. `region_best_link` says which link is
    // best: the highest best SNR (none last), then the lowest observer key. The batch's node
    // upsert keeps the columns (RegionWrites.nodes), retention elects the next best when it trims
    // the best link (RegionPartitions.reelectBest); the nodes heard so far are filled in here.
    static let v3NodeBest = RegionMigration(name: "v3-node-best-observer", statements: [
        "ALTER TABLE nodes ADD COLUMN best_observer bytea, ADD COLUMN best_snr real, ADD COLUMN best_heard timestamptz",
        """
        CREATE FUNCTION region_best_link(node bytea) RETURNS TABLE (observer_key bytea, best_snr real, last_heard timestamptz)
        LANGUAGE sql STABLE AS $$
            SELECT l.observer_key, l.best_snr, l.last_heard FROM observer_links l
            WHERE l.node_key = node ORDER BY l.best_snr DESC NULLS LAST, l.observer_key LIMIT 1
        $$
        """,
        """
        UPDATE nodes n SET (best_observer, best_snr, best_heard) = (SELECT * FROM region_best_link(n.key))
        WHERE n.key IN (SELECT node_key FROM observer_links)
        """,
    ])
}
