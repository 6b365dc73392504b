-- index channels_activity
CREATE INDEX channels_activity ON channels(radioId, lastMessageAt) WHERE lastMessageAt IS NOT NULL;

-- index channels_radio_index
CREATE UNIQUE INDEX channels_radio_index ON channels(radioId, channelIndex);

-- index contacts_activity
CREATE INDEX contacts_activity ON contacts(radioId, lastMessageAt) WHERE lastMessageAt IS NOT NULL;

-- index contacts_radio_key
CREATE UNIQUE INDEX contacts_radio_key ON contacts(radioId, publicKey);

-- index contacts_radio_list
CREATE INDEX contacts_radio_list ON contacts(radioId, isFavourite DESC, name);

-- index contacts_unread
CREATE INDEX contacts_unread ON contacts(radioId) WHERE unreadCount > 0;

-- index heard_packets_node
CREATE INDEX heard_packets_node ON heard_packets(radioId, node, heardAt, id) WHERE node IS NOT NULL;

-- index heard_packets_timeline
CREATE INDEX heard_packets_timeline ON heard_packets(radioId, heardAt, id);

-- index heard_packets_type
CREATE INDEX heard_packets_type ON heard_packets(radioId, payloadType, heardAt, id);

-- index messages_channel_timeline
CREATE INDEX messages_channel_timeline ON messages(channelId, timestamp, id) WHERE channelId IS NOT NULL;

-- index messages_contact_timeline
CREATE INDEX messages_contact_timeline ON messages(contactId, timestamp, id) WHERE contactId IS NOT NULL;

-- index messages_radio_ack
CREATE UNIQUE INDEX messages_radio_ack ON messages(radioId, ackCode) WHERE ackCode IS NOT NULL;

-- index messages_radio_time_dedupe
CREATE UNIQUE INDEX messages_radio_time_dedupe ON messages(radioId, senderTimestamp, dedupeKey);

-- index messages_unresolved
CREATE INDEX messages_unresolved ON messages(radioId, senderPrefix) WHERE kind = 0 AND contactId IS NULL;

-- index positions_node_time
CREATE INDEX positions_node_time ON positions(contactId, recordedAt, id);

-- index remote_sessions_contact
CREATE INDEX remote_sessions_contact ON remote_sessions(contactId);

-- index remote_sessions_radio_contact
CREATE UNIQUE INDEX remote_sessions_radio_contact ON remote_sessions(radioId, contactId);

-- index room_messages_session_dedupe
CREATE UNIQUE INDEX room_messages_session_dedupe ON room_messages(sessionId, dedupeKey);

-- index room_messages_timeline
CREATE INDEX room_messages_timeline ON room_messages(sessionId, timestamp, id);

-- index sqlite_autoindex_grdb_migrations_1
-- (created by SQLite)

-- index sqlite_autoindex_radios_1
-- (created by SQLite)

-- index stats_node_time
CREATE INDEX stats_node_time ON stats_samples(contactId, recordedAt, id);

-- index stats_radio_time
CREATE INDEX stats_radio_time ON stats_samples(radioId, recordedAt, id) WHERE contactId IS NULL;

-- index telemetry_node_type_time
CREATE INDEX telemetry_node_type_time ON telemetry_samples(contactId, lppType, recordedAt, id);

-- table channels
CREATE TABLE channels (
    id INTEGER PRIMARY KEY,
    radioId INTEGER NOT NULL REFERENCES radios(id) ON DELETE CASCADE,
    channelIndex INTEGER NOT NULL CHECK (channelIndex BETWEEN 0 AND 255),
    name TEXT NOT NULL DEFAULT '',
    secret BLOB NOT NULL DEFAULT x'00000000000000000000000000000000' CHECK (length(secret) = 16),
    kind TEXT NOT NULL DEFAULT 'empty',
    unreadCount INTEGER NOT NULL DEFAULT 0,
    messageCount INTEGER NOT NULL DEFAULT 0,
    isArchived INTEGER NOT NULL DEFAULT 0,
    archivedAt INTEGER,
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL
, lastMessageAt INTEGER);

-- table contacts
CREATE TABLE contacts (
    id INTEGER PRIMARY KEY,
    radioId INTEGER NOT NULL REFERENCES radios(id) ON DELETE CASCADE,
    publicKey BLOB NOT NULL CHECK (length(publicKey) = 32),
    type INTEGER NOT NULL,
    flags INTEGER NOT NULL DEFAULT 0,
    outPathLength INTEGER NOT NULL DEFAULT 255,
    outPathHashMode INTEGER NOT NULL DEFAULT 0,
    outPath BLOB NOT NULL DEFAULT x'',
    name TEXT NOT NULL,
    latitudeE6 INTEGER NOT NULL DEFAULT 0,
    longitudeE6 INTEGER NOT NULL DEFAULT 0,
    lastAdvert INTEGER NOT NULL DEFAULT 0,
    lastmod INTEGER NOT NULL DEFAULT 0,
    unreadCount INTEGER NOT NULL DEFAULT 0,
    messageCount INTEGER NOT NULL DEFAULT 0,
    isFavourite INTEGER NOT NULL DEFAULT 0,
    isArchived INTEGER NOT NULL DEFAULT 0,
    archivedAt INTEGER,
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL
, removedAt INTEGER, lastMessageAt INTEGER);

-- table grdb_migrations
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);

-- table heard_packets
CREATE TABLE heard_packets (
    id INTEGER PRIMARY KEY,
    radioId INTEGER NOT NULL REFERENCES radios(id) ON DELETE CASCADE,
    heardAt INTEGER NOT NULL,
    snrX4 INTEGER NOT NULL,
    rssi INTEGER NOT NULL,
    hash BLOB NOT NULL CHECK (length(hash) = 8),
    payloadType INTEGER NOT NULL,
    route INTEGER NOT NULL,
    path BLOB NOT NULL,
    raw BLOB NOT NULL,
    channel INTEGER,
    node BLOB CHECK (node IS NULL OR length(node) = 32),
    createdAt INTEGER NOT NULL
);

-- table message_fts
CREATE VIRTUAL TABLE message_fts USING fts5(
    body, sender, content='message_search_source', content_rowid='id',
    tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co So'");

-- table message_fts_config
CREATE TABLE 'message_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;

-- table message_fts_data
CREATE TABLE 'message_fts_data'(id INTEGER PRIMARY KEY, block BLOB);

-- table message_fts_docsize
CREATE TABLE 'message_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);

-- table message_fts_idx
CREATE TABLE 'message_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

-- table messages
CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    radioId INTEGER NOT NULL REFERENCES radios(id) ON DELETE CASCADE,
    kind INTEGER NOT NULL,
    contactId INTEGER REFERENCES contacts(id) ON DELETE CASCADE,
    channelId INTEGER REFERENCES channels(id) ON DELETE CASCADE,
    direction INTEGER NOT NULL,
    status INTEGER NOT NULL,
    ackCode INTEGER,
    attempt INTEGER NOT NULL DEFAULT 0,
    roundTripMs INTEGER,
    heardRepeats INTEGER NOT NULL DEFAULT 0,
    snrX4 INTEGER,
    pathLength INTEGER,
    textType INTEGER NOT NULL DEFAULT 0,
    senderPrefix BLOB,
    senderName TEXT,
    text TEXT NOT NULL,
    senderTimestamp INTEGER NOT NULL,
    timestamp INTEGER NOT NULL,
    dedupeKey INTEGER NOT NULL,
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL, searchText TEXT, failureReason TEXT,
    CHECK ((kind = 0 AND channelId IS NULL) OR (kind = 1 AND channelId IS NOT NULL AND contactId IS NULL))
);

-- table positions
CREATE TABLE positions (
    id INTEGER PRIMARY KEY,
    radioId INTEGER NOT NULL REFERENCES radios(id) ON DELETE CASCADE,
    contactId INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    latitudeE6 INTEGER NOT NULL,
    longitudeE6 INTEGER NOT NULL,
    altitude REAL,
    source INTEGER NOT NULL,
    recordedAt INTEGER NOT NULL,
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL
);

-- table radios
CREATE TABLE radios (
    id INTEGER PRIMARY KEY,
    publicKey BLOB NOT NULL UNIQUE CHECK (length(publicKey) = 32),
    name TEXT NOT NULL,
    advertType INTEGER NOT NULL,
    txPower INTEGER NOT NULL,
    maxTxPower INTEGER NOT NULL,
    latitudeE6 INTEGER NOT NULL,
    longitudeE6 INTEGER NOT NULL,
    multiAcks INTEGER NOT NULL,
    advertLocationPolicy INTEGER NOT NULL,
    telemetryModes INTEGER NOT NULL,
    manualAddContacts INTEGER NOT NULL,
    frequencyKHz INTEGER NOT NULL,
    bandwidthHz INTEGER NOT NULL,
    spreadingFactor INTEGER NOT NULL,
    codingRate INTEGER NOT NULL,
    contactsLastmod INTEGER NOT NULL DEFAULT 0,
    lastConnectedAt INTEGER,
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL
);

-- table remote_sessions
CREATE TABLE remote_sessions (
    id INTEGER PRIMARY KEY,
    radioId INTEGER NOT NULL REFERENCES radios(id) ON DELETE CASCADE,
    contactId INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    role INTEGER NOT NULL,
    permission INTEGER NOT NULL DEFAULT 0,
    isConnected INTEGER NOT NULL DEFAULT 0,
    lastLoginAt INTEGER,
    messageCount INTEGER NOT NULL DEFAULT 0,
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL
);

-- table room_messages
CREATE TABLE room_messages (
    id INTEGER PRIMARY KEY,
    radioId INTEGER NOT NULL REFERENCES radios(id) ON DELETE CASCADE,
    sessionId INTEGER NOT NULL REFERENCES remote_sessions(id) ON DELETE CASCADE,
    authorPrefix BLOB NOT NULL,
    text TEXT NOT NULL,
    textType INTEGER NOT NULL DEFAULT 0,
    snrX4 INTEGER,
    senderTimestamp INTEGER NOT NULL,
    timestamp INTEGER NOT NULL,
    dedupeKey INTEGER NOT NULL,
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL
);

-- table stats_samples
CREATE TABLE stats_samples (
    id INTEGER PRIMARY KEY,
    radioId INTEGER NOT NULL REFERENCES radios(id) ON DELETE CASCADE,
    contactId INTEGER REFERENCES contacts(id) ON DELETE CASCADE,
    recordedAt INTEGER NOT NULL,
    batteryMillivolts INTEGER,
    uptimeSeconds INTEGER,
    errorFlags INTEGER,
    queueLength INTEGER,
    noiseFloor INTEGER,
    lastRSSI INTEGER,
    lastSNRx4 INTEGER,
    txAirtimeSeconds INTEGER,
    rxAirtimeSeconds INTEGER,
    packetsReceived INTEGER,
    packetsSent INTEGER,
    sentFlood INTEGER,
    sentDirect INTEGER,
    receivedFlood INTEGER,
    receivedDirect INTEGER,
    receiveErrors INTEGER,
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL
);

-- table telemetry_samples
CREATE TABLE telemetry_samples (
    id INTEGER PRIMARY KEY,
    radioId INTEGER NOT NULL REFERENCES radios(id) ON DELETE CASCADE,
    contactId INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    lppChannel INTEGER NOT NULL,
    lppType INTEGER NOT NULL,
    value REAL NOT NULL,
    value2 REAL,
    value3 REAL,
    recordedAt INTEGER NOT NULL,
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL
);

-- trigger message_fts_delete
CREATE TRIGGER message_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO message_fts(message_fts, rowid, body, sender)
        VALUES ('delete', old.id, coalesce(old.searchText, old.text), coalesce(old.senderName, ''));
END;

-- trigger message_fts_insert
CREATE TRIGGER message_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO message_fts(rowid, body, sender)
        VALUES (new.id, coalesce(new.searchText, new.text), coalesce(new.senderName, ''));
END;

-- trigger message_fts_update
CREATE TRIGGER message_fts_update AFTER UPDATE OF text, searchText, senderName ON messages BEGIN
    INSERT INTO message_fts(message_fts, rowid, body, sender)
        VALUES ('delete', old.id, coalesce(old.searchText, old.text), coalesce(old.senderName, ''));
    INSERT INTO message_fts(rowid, body, sender)
        VALUES (new.id, coalesce(new.searchText, new.text), coalesce(new.senderName, ''));
END;

-- view message_search_source
CREATE VIEW message_search_source AS
    SELECT id, coalesce(searchText, text) AS body, coalesce(senderName, '') AS sender FROM messages;
