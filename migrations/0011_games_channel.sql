-- Each channel's games, over or not, newest last: `!log`, `!board` and `!audit` after a game
-- ended look its last game up without reading every game.
CREATE INDEX games_channel ON games (channel, id);
