-- Each audience's undelivered posts in order: the outbox is delivered audience by audience,
-- side by side, and each deliverer reads its audience's next posts (PostgreSQL has this
-- index from its first migration).
CREATE INDEX outbox_undelivered ON outbox (audience, id) WHERE delivered_at IS NULL AND failed IS NULL;
