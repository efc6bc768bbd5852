-- When the oldest search asked in a game was asked (unix milliseconds), NULL when none is:
-- the searches the table runs beside itself (Short Circuit's solver) are found by it after a
-- restart too.
ALTER TABLE games ADD COLUMN searching INTEGER;
CREATE INDEX games_searching ON games (searching) WHERE searching IS NOT NULL;
