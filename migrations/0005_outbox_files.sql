-- A file sent with a post (the audit page of a finished game): its name and its text.
ALTER TABLE outbox ADD COLUMN attachment_name TEXT;
ALTER TABLE outbox ADD COLUMN attachment TEXT;
-- Delivered posts whose picture or file is still kept, oldest first: what the retention
-- period clears.
CREATE INDEX outbox_kept_files ON outbox (delivered_at)
    WHERE delivered_at IS NOT NULL AND (svg IS NOT NULL OR attachment IS NOT NULL);
