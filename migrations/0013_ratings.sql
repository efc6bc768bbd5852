-- Finished games as the ratings and `!stats` read them (`result`: JSON of
-- records::GameResult), rated per server and game in the order they ended.
CREATE TABLE results (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    server    TEXT    NOT NULL,
    game      TEXT    NOT NULL,
    ended_at  INTEGER NOT NULL,   -- unix milliseconds
    result    TEXT    NOT NULL
);
CREATE INDEX results_order ON results (server, game, ended_at, game_id);

-- Who played in each finished game, to find a player's games for `!stats`.
CREATE TABLE result_players (
    game_id  INTEGER NOT NULL REFERENCES results (game_id) ON DELETE CASCADE,
    player   TEXT    NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE INDEX result_players_player ON result_players (player);

-- Each player's rating per server and game (Weng-Lin), `mu` and `sigma` as the bits of their
-- 64-bit floats, so a rating read back is exactly the one written.
CREATE TABLE ratings (
    server  TEXT    NOT NULL,
    game    TEXT    NOT NULL,
    player  TEXT    NOT NULL,
    name    TEXT    NOT NULL,
    mu      INTEGER NOT NULL,
    sigma   INTEGER NOT NULL,
    games   INTEGER NOT NULL,
    PRIMARY KEY (server, game, player)
);
-- A player's ratings on a server, for `!stats`.
CREATE INDEX ratings_player ON ratings (server, player);
