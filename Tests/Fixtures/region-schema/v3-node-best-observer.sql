CREATE FUNCTION public.region_best_link(node bytea) RETURNS TABLE(observer_key bytea, best_snr real, last_heard timestamp with time zone)
    LANGUAGE sql STABLE
    AS $$
    SELECT l.observer_key, l.best_snr, l.last_heard FROM observer_links l
    WHERE l.node_key = node ORDER BY l.best_snr DESC NULLS LAST, l.observer_key LIMIT 1
$$;

CREATE FUNCTION public.region_logical_packets_added() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO region_hours AS h (hour, observations, packets)
    SELECT date_trunc('hour', first_seen, 'UTC'), 0, count(*) FROM added GROUP BY 1 ORDER BY 1
    ON CONFLICT (hour) DO UPDATE SET packets = h.packets + EXCLUDED.packets;
    RETURN NULL;
END
$$;

CREATE FUNCTION public.region_observation_partition(day date) RETURNS text
    LANGUAGE plpgsql
    AS $$
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
$$;

CREATE FUNCTION public.region_observations_added() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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
$$;

CREATE TABLE public.channel_messages (
    logical_hash text NOT NULL,
    region text NOT NULL,
    channel_name text NOT NULL,
    channel_hash smallint NOT NULL,
    sender text,
    text text NOT NULL,
    sent_at timestamp with time zone NOT NULL,
    heard_at timestamp with time zone NOT NULL
);

CREATE TABLE public.logical_packets (
    hash text NOT NULL,
    payload_type smallint NOT NULL,
    first_seen timestamp with time zone NOT NULL,
    last_seen timestamp with time zone NOT NULL,
    observation_count integer NOT NULL,
    CONSTRAINT logical_packets_hash_check CHECK ((hash ~ '^[0-9A-F]{16}$'::text))
);

CREATE TABLE public.node_adverts (
    node_key bytea NOT NULL,
    advertised_at timestamp with time zone NOT NULL,
    name text,
    kind text NOT NULL,
    latitude double precision,
    longitude double precision,
    logical_hash text NOT NULL,
    heard_at timestamp with time zone NOT NULL,
    CONSTRAINT node_adverts_node_key_check CHECK ((length(node_key) = 32))
);

CREATE TABLE public.nodes (
    key bytea NOT NULL,
    name text,
    kind text NOT NULL,
    latitude double precision,
    longitude double precision,
    position_at timestamp with time zone,
    first_seen timestamp with time zone NOT NULL,
    last_seen timestamp with time zone NOT NULL,
    last_advert timestamp with time zone NOT NULL,
    best_observer bytea,
    best_snr real,
    best_heard timestamp with time zone,
    CONSTRAINT nodes_key_check CHECK ((length(key) = 32))
);

CREATE TABLE public.observations (
    id bigint NOT NULL,
    region text NOT NULL,
    observer_key bytea NOT NULL,
    packet_hash bytea NOT NULL,
    logical_hash text,
    payload_type smallint,
    source_key bytea,
    heard_at timestamp with time zone NOT NULL,
    direction text NOT NULL,
    snr real,
    rssi integer,
    path bytea,
    CONSTRAINT observations_direction_check CHECK ((direction = ANY (ARRAY['rx'::text, 'tx'::text]))),
    CONSTRAINT observations_observer_key_check CHECK ((length(observer_key) = 32)),
    CONSTRAINT observations_packet_hash_check CHECK ((length(packet_hash) = 32))
)
PARTITION BY RANGE (heard_at);

CREATE SEQUENCE public.observation_ids
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.observation_ids OWNED BY public.observations.id;

CREATE TABLE public.observer_links (
    observer_key bytea NOT NULL,
    node_key bytea NOT NULL,
    hearings bigint NOT NULL,
    best_snr real,
    last_snr real,
    first_heard timestamp with time zone NOT NULL,
    last_heard timestamp with time zone NOT NULL,
    CONSTRAINT observer_links_node_key_check CHECK ((length(node_key) = 32)),
    CONSTRAINT observer_links_observer_key_check CHECK ((length(observer_key) = 32))
);

CREATE TABLE public.observers (
    key bytea NOT NULL,
    region text NOT NULL,
    name text NOT NULL,
    model text,
    firmware text,
    client_version text,
    radio text,
    last_stats jsonb,
    online boolean NOT NULL,
    first_seen timestamp with time zone NOT NULL,
    last_seen timestamp with time zone NOT NULL,
    CONSTRAINT observers_key_check CHECK ((length(key) = 32))
);

CREATE TABLE public.packets (
    hash bytea NOT NULL,
    raw bytea NOT NULL,
    length integer NOT NULL,
    payload_type smallint,
    route smallint,
    logical_hash text,
    first_seen timestamp with time zone NOT NULL,
    last_seen timestamp with time zone NOT NULL,
    CONSTRAINT packets_hash_check CHECK ((length(hash) = 32))
);

CREATE TABLE public.region_hours (
    hour timestamp with time zone NOT NULL,
    observations bigint NOT NULL,
    packets bigint NOT NULL
);

CREATE TABLE public.region_migrations (
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.rejected_messages (
    topic text NOT NULL,
    payload_hash bytea NOT NULL,
    payload bytea NOT NULL,
    reason text NOT NULL,
    received_at timestamp with time zone NOT NULL
);

CREATE VIEW public.rejected_reasons AS
 SELECT rejected_messages.reason,
    count(*) AS messages,
    max(rejected_messages.received_at) AS last_received
   FROM public.rejected_messages
  GROUP BY rejected_messages.reason;

CREATE TABLE public.trace_events (
    logical_hash text NOT NULL,
    region text NOT NULL,
    tag bigint NOT NULL,
    hops bytea NOT NULL,
    hop_snrs double precision[] NOT NULL,
    heard_at timestamp with time zone NOT NULL
);

ALTER TABLE ONLY public.observations ALTER COLUMN id SET DEFAULT nextval('public.observation_ids'::regclass);

ALTER TABLE ONLY public.channel_messages
    ADD CONSTRAINT channel_messages_pkey PRIMARY KEY (logical_hash);

ALTER TABLE ONLY public.logical_packets
    ADD CONSTRAINT logical_packets_pkey PRIMARY KEY (hash);

ALTER TABLE ONLY public.node_adverts
    ADD CONSTRAINT node_adverts_pkey PRIMARY KEY (node_key, advertised_at);

ALTER TABLE ONLY public.nodes
    ADD CONSTRAINT nodes_pkey PRIMARY KEY (key);

ALTER TABLE ONLY public.observations
    ADD CONSTRAINT observations_heard_at_observer_key_packet_hash_key UNIQUE (heard_at, observer_key, packet_hash);

ALTER TABLE ONLY public.observer_links
    ADD CONSTRAINT observer_links_pkey PRIMARY KEY (observer_key, node_key);

ALTER TABLE ONLY public.observers
    ADD CONSTRAINT observers_pkey PRIMARY KEY (key);

ALTER TABLE ONLY public.packets
    ADD CONSTRAINT packets_pkey PRIMARY KEY (hash);

ALTER TABLE ONLY public.region_hours
    ADD CONSTRAINT region_hours_pkey PRIMARY KEY (hour);

ALTER TABLE ONLY public.region_migrations
    ADD CONSTRAINT region_migrations_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.rejected_messages
    ADD CONSTRAINT rejected_messages_pkey PRIMARY KEY (topic, payload_hash);

ALTER TABLE ONLY public.trace_events
    ADD CONSTRAINT trace_events_pkey PRIMARY KEY (logical_hash);

CREATE INDEX channel_messages_page ON public.channel_messages USING btree (channel_name, heard_at DESC, logical_hash DESC);

CREATE INDEX logical_packets_seen ON public.logical_packets USING btree (last_seen DESC, hash DESC);

CREATE INDEX nodes_seen ON public.nodes USING btree (last_seen DESC, key);

CREATE INDEX observations_logical ON ONLY public.observations USING btree (logical_hash) WHERE (logical_hash IS NOT NULL);

CREATE INDEX observations_observer_page ON ONLY public.observations USING btree (observer_key, heard_at DESC, id DESC);

CREATE INDEX observations_region_page ON ONLY public.observations USING btree (region, heard_at DESC, id DESC);

CREATE INDEX observations_source_page ON ONLY public.observations USING btree (source_key, heard_at DESC, id DESC) WHERE (source_key IS NOT NULL);

CREATE INDEX observer_links_node_best ON public.observer_links USING btree (node_key, best_snr DESC NULLS LAST);

CREATE INDEX observers_region_seen ON public.observers USING btree (region, last_seen DESC, key);

CREATE INDEX packets_logical ON public.packets USING btree (logical_hash) WHERE (logical_hash IS NOT NULL);

CREATE TRIGGER logical_packets_added AFTER INSERT ON public.logical_packets REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.region_logical_packets_added();

CREATE TRIGGER observations_added AFTER INSERT ON public.observations REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.region_observations_added();
