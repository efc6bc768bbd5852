-- Where each inbound message was read and its place there (the platform's message number), so
-- that after downtime the bot reads each channel's history from the last message it applied.
ALTER TABLE inbound ADD COLUMN channel TEXT;
ALTER TABLE inbound ADD COLUMN position INTEGER;
CREATE INDEX inbound_channel ON inbound (channel, position) WHERE channel IS NOT NULL;

-- Facts about this database itself. `instance` is a random name drawn once, which makes the
-- nonces of this database's posts differ from those of any other database.
CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
INSERT INTO meta (key, value) VALUES ('instance', lower(hex(randomblob(4))));
