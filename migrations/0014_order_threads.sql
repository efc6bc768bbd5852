-- Each player's private thread (`orders=thread`, or their DMs closed): a message there is
-- read as that player's direct message to that game.
CREATE TABLE order_threads (
    thread   TEXT    PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  TEXT    NOT NULL
);
