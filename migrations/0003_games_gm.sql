-- The GM of each game as its own column, so a direct message finds the sender's games by
-- index instead of reading every game's JSON record.
ALTER TABLE games ADD COLUMN gm_id TEXT NOT NULL DEFAULT '';
UPDATE games SET gm_id = COALESCE(json_extract(record, '$.gm.id'), '');
CREATE INDEX games_gm ON games (gm_id) WHERE status <> 'over';
