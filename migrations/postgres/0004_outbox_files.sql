-- Pictures and files apart from the posts: the outbox is read for what to deliver on every
-- change, and a board picture is larger than everything else of a post; a post's picture
-- and file are read only when the post is sent (and dropped after `keep_pictures`).
CREATE TABLE outbox_files (
    id               BIGINT PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
    svg              TEXT,   -- a board picture, rendered to PNG at delivery
    attachment_name  TEXT,   -- a file sent with the post
    attachment       TEXT
);
INSERT INTO outbox_files (id, svg, attachment_name, attachment)
    SELECT id, svg, attachment_name, attachment FROM outbox
    WHERE svg IS NOT NULL OR attachment IS NOT NULL;
DROP INDEX outbox_kept_files;
ALTER TABLE outbox DROP COLUMN svg;
ALTER TABLE outbox DROP COLUMN attachment_name;
ALTER TABLE outbox DROP COLUMN attachment;
