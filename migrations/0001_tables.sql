-- One row per game; `record` is the table's JSON record (seats, phase, orders, game state).
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    channel     TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'paused', 'over')),
    deadline    INTEGER,          -- unix milliseconds when the phase resolves by itself
    remind_at   INTEGER,          -- unix milliseconds when silent players are reminded
    record      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
-- One game per channel while it is not over.
CREATE UNIQUE INDEX games_open_channel ON games (channel) WHERE status <> 'over';
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX games_remind_at ON games (remind_at) WHERE remind_at IS NOT NULL;

-- Who sits (or waits) in which game, to route direct messages.
CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX seats_user ON seats (user_id);

-- The replay log: every input that changed a game, in order, with its time.
CREATE TABLE inputs (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    at       INTEGER NOT NULL,   -- unix milliseconds
    input    TEXT    NOT NULL,   -- JSON of table::Input
    PRIMARY KEY (game_id, seq)
);

-- The audit log: what every input caused, in order.
CREATE TABLE events (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    input_seq  INTEGER NOT NULL,
    round      INTEGER NOT NULL,
    visibility TEXT    NOT NULL,   -- JSON of table::LogVisibility
    body       TEXT    NOT NULL,   -- JSON of table::EventBody
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX events_round ON events (game_id, round);

-- Messages to send, committed with the change that caused them, delivered after commit.
CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    audience      TEXT    NOT NULL,   -- JSON of table::Audience
    body          TEXT    NOT NULL,
    svg           TEXT,               -- a board picture, rendered to PNG at delivery
    created_at    INTEGER NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_attempt  INTEGER NOT NULL,
    delivered_at  INTEGER,
    failed        TEXT               -- the permanent error, if it was given up
);
CREATE INDEX outbox_pending ON outbox (next_attempt) WHERE delivered_at IS NULL AND failed IS NULL;

-- Inbound message ids already applied: the idempotency keys.
CREATE TABLE inbound (
    message_id   TEXT    PRIMARY KEY,
    received_at  INTEGER NOT NULL
);
