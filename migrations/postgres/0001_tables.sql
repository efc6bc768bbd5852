-- The tables of SQLite's migrations 0001 to 0006 in PostgreSQL's dialect, and the leases that
-- let several processes share the outbox. Times are unix milliseconds, as in SQLite.

-- One row per game; `record` is the table's JSON record (seats, phase, orders, game state).
CREATE TABLE games (
    id          BIGINT  PRIMARY KEY,
    channel     TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    gm_id       TEXT    NOT NULL DEFAULT '',
    status      TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'paused', 'over')),
    deadline    BIGINT,           -- when the phase resolves by itself
    remind_at   BIGINT,           -- when silent players are reminded
    record      TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
-- One game per channel while it is not over.
CREATE UNIQUE INDEX games_open_channel ON games (channel) WHERE status <> 'over';
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX games_remind_at ON games (remind_at) WHERE remind_at IS NOT NULL;
CREATE INDEX games_gm ON games (gm_id) WHERE status <> 'over';

-- Who sits (or waits) in which game, to route direct messages.
CREATE TABLE seats (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  TEXT   NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX seats_user ON seats (user_id);

-- The replay log: every input that changed a game, in order, with its time.
CREATE TABLE inputs (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      BIGINT NOT NULL,
    at       BIGINT NOT NULL,
    input    TEXT   NOT NULL,   -- JSON of table::Input
    undone_by BIGINT,           -- the `!undo` input that took it back (its events with it)
    PRIMARY KEY (game_id, seq)
);

-- The audit log: what every input caused, in order.
CREATE TABLE events (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    input_seq  BIGINT NOT NULL,
    round      BIGINT NOT NULL,
    visibility TEXT   NOT NULL,   -- JSON of table::LogVisibility
    body       TEXT   NOT NULL,   -- JSON of table::EventBody
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX events_round ON events (game_id, round);

-- Messages to send, committed with the change that caused them, delivered after commit.
CREATE TABLE outbox (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    audience         TEXT   NOT NULL,   -- JSON of table::Audience
    body             TEXT   NOT NULL,
    svg              TEXT,              -- a board picture, rendered to PNG at delivery
    card             TEXT,              -- JSON of table::Card
    attachment_name  TEXT,              -- a file sent with the post
    attachment       TEXT,
    created_at       BIGINT NOT NULL,
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt     BIGINT NOT NULL,
    parts_sent       BIGINT NOT NULL DEFAULT 0,
    delivered_at     BIGINT,
    failed           TEXT               -- the permanent error, if it was given up
);
CREATE INDEX outbox_pending ON outbox (audience, id) WHERE delivered_at IS NULL AND failed IS NULL;
CREATE INDEX outbox_kept_files ON outbox (delivered_at)
    WHERE delivered_at IS NOT NULL AND (svg IS NOT NULL OR attachment IS NOT NULL);

-- Which process delivers each audience's posts, and until when unless it renews the lease: one
-- process at a time, so a channel's posts go out once and in order; a process that died loses
-- its leases when they run out.
CREATE TABLE outbox_leases (
    audience     TEXT   PRIMARY KEY,
    leased_by    TEXT   NOT NULL DEFAULT '',
    lease_until  BIGINT NOT NULL DEFAULT 0
);

-- Inbound message ids already applied: the idempotency keys, with where each was read.
CREATE TABLE inbound (
    message_id   TEXT   PRIMARY KEY,
    received_at  BIGINT NOT NULL,
    channel      TEXT,
    position     BIGINT
);
CREATE INDEX inbound_channel ON inbound (channel, position) WHERE channel IS NOT NULL;

-- Facts about this database itself. `instance` is a random name drawn once, which makes the
-- nonces of this database's posts differ from those of any other database.
CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
INSERT INTO meta (key, value)
    VALUES ('instance', substr(md5(random()::text || clock_timestamp()::text), 1, 8));
