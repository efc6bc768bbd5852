-- An input taken back by the GM's `!undo` stays in the log, marked with the number of the
-- undo that took it back (its events with it).
ALTER TABLE inputs ADD COLUMN undone_by INTEGER;
