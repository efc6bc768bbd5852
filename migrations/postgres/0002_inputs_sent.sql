-- When each input was sent (unix milliseconds): the platform's time for a message, the
-- deadline's own time for a deadline that fired; NULL when it was applied as it was sent (the
-- console). A phase begins at the sent time of the input that began it, so replay needs it to
-- judge orders as the live table did.
ALTER TABLE inputs ADD COLUMN sent BIGINT;
