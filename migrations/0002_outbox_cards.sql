-- What a rich platform shows beside a post (JSON of table::Card): title, player fields,
-- deadline, buttons.
ALTER TABLE outbox ADD COLUMN card TEXT;
-- How many parts of a post split for a length limit were already sent (a retry goes on from
-- there, so no part is sent twice).
ALTER TABLE outbox ADD COLUMN parts_sent INTEGER NOT NULL DEFAULT 0;
