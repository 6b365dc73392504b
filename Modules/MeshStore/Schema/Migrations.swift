import GRDB

/// The schema's history. Each migration is named and, once shipped, never edited or removed:
/// a database written by any earlier release must still open and migrate. A change is a new
/// migration appended at the end (Tests/MeshStoreTests/Fixtures holds every earlier schema).
enum Migrations {
    static let names = ["v1-initial", "v2-room-messages", "v3-message-search", "v4-dedupe-by-time", "v5-contacts-removed", "v6-message-failure",
                              "v7-conversation-activity", "v8-packet-log"]

    /// Where the copy of the file at `path` goes before `migration` is applied to it: beside
    /// it, named after the migration ("meshport.db.before-v9-name").
    static func backupPath(of path: String, before migration: String) -> String { "\(path).before-\(migration)" }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1-initial") { db in try db.execute(sql: v1Initial) }
        m.registerMigration("v2-room-messages") { db in try db.execute(sql: v2RoomMessages) }
        m.registerMigration("v3-message-search") { db in try v3MessageSearch(db) }
        m.registerMigration("v4-dedupe-by-time") { db in try db.execute(sql: v4DedupeByTime) }
        m.registerMigration("v5-contacts-removed") { db in try db.execute(sql: v5ContactsRemoved) }
        m.registerMigration("v6-message-failure") { db in try db.execute(sql: v6MessageFailure) }
        m.registerMigration("v7-conversation-activity") { db in try db.execute(sql: v7ConversationActivity) }
        m.registerMigration("v8-packet-log") { db in try db.execute(sql: v8PacketLog) }
        return m
    }

    // Times are integer milliseconds since 1970; keys and secrets are BLOBs; every table
    // carries radioId, so no query can mix two radios.
    static let v1Initial = """
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
        );
        -- Natural key, and the range that prefix lookups (1 to 32 bytes) scan.
        CREATE UNIQUE INDEX contacts_radio_key ON contacts(radioId, publicKey);
        -- The contact list: favourites first, then by name.
        CREATE INDEX contacts_radio_list ON contacts(radioId, isFavourite DESC, name);
        -- Unread counts read only the few contacts that have any.
        CREATE INDEX contacts_unread ON contacts(radioId) WHERE unreadCount > 0;

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
        );
        CREATE UNIQUE INDEX channels_radio_index ON channels(radioId, channelIndex);

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
            updatedAt INTEGER NOT NULL,
            CHECK ((kind = 0 AND channelId IS NULL) OR (kind = 1 AND channelId IS NOT NULL AND contactId IS NULL))
        );
        CREATE UNIQUE INDEX messages_radio_dedupe ON messages(radioId, dedupeKey);
        -- Only outgoing messages carry an ACK code: received ones add no entry.
        CREATE UNIQUE INDEX messages_radio_ack ON messages(radioId, ackCode) WHERE ackCode IS NOT NULL;
        -- Timelines page by (timestamp, id); these also serve the foreign keys' cascades.
        CREATE INDEX messages_contact_timeline ON messages(contactId, timestamp, id) WHERE contactId IS NOT NULL;
        CREATE INDEX messages_channel_timeline ON messages(channelId, timestamp, id) WHERE channelId IS NOT NULL;
        -- DMs whose 6-byte sender prefix matched no contact yet, attached when it arrives.
        CREATE INDEX messages_unresolved ON messages(radioId, senderPrefix) WHERE kind = 0 AND contactId IS NULL;

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
        CREATE INDEX positions_node_time ON positions(contactId, recordedAt, id);

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
        CREATE INDEX telemetry_node_type_time ON telemetry_samples(contactId, lppType, recordedAt, id);

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
        CREATE INDEX stats_node_time ON stats_samples(contactId, recordedAt, id);
        CREATE INDEX stats_radio_time ON stats_samples(radioId, recordedAt, id) WHERE contactId IS NULL;
        """

    // Logins to repeaters and room servers, and the posts a room server pushes.
    static let v2RoomMessages = """
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
        CREATE UNIQUE INDEX remote_sessions_radio_contact ON remote_sessions(radioId, contactId);
        CREATE INDEX remote_sessions_contact ON remote_sessions(contactId);

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
        CREATE UNIQUE INDEX room_messages_session_dedupe ON room_messages(sessionId, dedupeKey);
        CREATE INDEX room_messages_timeline ON room_messages(sessionId, timestamp, id);
        """

    // Full-text search: an external-content FTS5 table over messages, kept in sync by
    // triggers. `searchText` holds the text with word breaks (U+200B) around CJK characters
    // and symbols so each is its own token; NULL when it would equal `text`.
    static func v3MessageSearch(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE messages ADD COLUMN searchText TEXT")
        // Backfill before the triggers exist, so the rebuild below indexes every row once.
        let rows = try Row.fetchAll(db, sql: "SELECT id, text FROM messages")
        let update = try db.makeStatement(sql: "UPDATE messages SET searchText = ? WHERE id = ?")
        for row in rows {
            let text: String = try row.decode(forColumn: "text")
            if let segmented = SearchText.segmented(text) {
                try update.execute(arguments: [segmented, row.decode(Int64.self, forColumn: "id")])
            }
        }
        try db.execute(sql: """
            CREATE VIEW message_search_source AS
                SELECT id, coalesce(searchText, text) AS body, coalesce(senderName, '') AS sender FROM messages;
            CREATE VIRTUAL TABLE message_fts USING fts5(
                body, sender, content='message_search_source', content_rowid='id',
                tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co So'");
            CREATE TRIGGER message_fts_insert AFTER INSERT ON messages BEGIN
                INSERT INTO message_fts(rowid, body, sender)
                    VALUES (new.id, coalesce(new.searchText, new.text), coalesce(new.senderName, ''));
            END;
            CREATE TRIGGER message_fts_delete AFTER DELETE ON messages BEGIN
                INSERT INTO message_fts(message_fts, rowid, body, sender)
                    VALUES ('delete', old.id, coalesce(old.searchText, old.text), coalesce(old.senderName, ''));
            END;
            CREATE TRIGGER message_fts_update AFTER UPDATE OF text, searchText, senderName ON messages BEGIN
                INSERT INTO message_fts(message_fts, rowid, body, sender)
                    VALUES ('delete', old.id, coalesce(old.searchText, old.text), coalesce(old.senderName, ''));
                INSERT INTO message_fts(rowid, body, sender)
                    VALUES (new.id, coalesce(new.searchText, new.text), coalesce(new.senderName, ''));
            END;
            INSERT INTO message_fts(message_fts) VALUES ('rebuild');
            """)
    }

    // De-duplication keys are hashes: indexed alone, each new message lands on a random
    // index page, and a batch of 1,000 rewrote most of the index (about 900 pages at 500,000
    // messages) to the WAL at every commit. The sender's timestamp is part of what the key
    // hashes, so a copy of a message has the same one; leading with it keeps the new entries
    // of a batch on a few adjacent pages. Uniqueness per (radio, key) implies uniqueness here.
    static let v4DedupeByTime = """
        CREATE UNIQUE INDEX messages_radio_time_dedupe ON messages(radioId, senderTimestamp, dedupeKey);
        DROP INDEX messages_radio_dedupe;
        """

    // A contact removed from the radio keeps its history: the row stays, marked, and leaves
    // the contact list until the radio has it again.
    static let v5ContactsRemoved = """
        ALTER TABLE contacts ADD COLUMN removedAt INTEGER;
        """

    // Why an outgoing message failed ("no ACK after 3 attempts (2 direct, 1 flood)", a
    // refused command), so a failure shown later says what happened. NULL otherwise.
    static let v6MessageFailure = """
        ALTER TABLE messages ADD COLUMN failureReason TEXT;
        """

    // When each conversation last had a message, so the list of conversations (the web UI's
    // chats) is one index range scan, newest first, however many contacts the radio has.
    // Kept by the writer with every message counted on the thread; NULL while it has none.
    static let v7ConversationActivity = """
        ALTER TABLE contacts ADD COLUMN lastMessageAt INTEGER;
        ALTER TABLE channels ADD COLUMN lastMessageAt INTEGER;
        UPDATE contacts SET lastMessageAt = (SELECT max(timestamp) FROM messages WHERE messages.contactId = contacts.id);
        UPDATE channels SET lastMessageAt = (SELECT max(timestamp) FROM messages WHERE messages.channelId = channels.id);
        CREATE INDEX contacts_activity ON contacts(radioId, lastMessageAt) WHERE lastMessageAt IS NOT NULL;
        CREATE INDEX channels_activity ON channels(radioId, lastMessageAt) WHERE lastMessageAt IS NOT NULL;
        """

    // The packet log: every packet the radio heard (LOG_RX_DATA). `raw` is the packet; hash
    // (8 bytes), payload type, route and path repeat parts of it for filters and SQL readers.
    // `channel` is the radio's slot whose secret opened it, `node` the key of the node it came
    // from, each when Meshport could tell. Pages run newest first by (heardAt, id), over the
    // whole log, one payload type, or one node.
    static let v8PacketLog = """
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
        CREATE INDEX heard_packets_timeline ON heard_packets(radioId, heardAt, id);
        CREATE INDEX heard_packets_type ON heard_packets(radioId, payloadType, heardAt, id);
        CREATE INDEX heard_packets_node ON heard_packets(radioId, node, heardAt, id) WHERE node IS NOT NULL;
        """
}
