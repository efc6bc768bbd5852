-- The row the health check (`/healthz`) writes to prove the database takes writes.
CREATE TABLE health_checks (
    id          INTEGER PRIMARY KEY,
    checked_at  INTEGER NOT NULL
);
