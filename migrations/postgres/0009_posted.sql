-- The newest message the bot posted in each Discord channel (DM channels included), as
-- Discord numbered it: a catch-up reads no history of a channel whose last message is the
-- bot's own, posted well before the newest message the bot applied.
CREATE TABLE posted (
    channel  TEXT    PRIMARY KEY,
    message  BIGINT  NOT NULL
);
