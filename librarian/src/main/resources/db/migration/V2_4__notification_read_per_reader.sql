-- Read state per reader: a viewer marking a notification read must not hide it from the admins who triage
-- the same inbox. Reads made before this version were shared by everyone; they are kept for everyone who
-- can see notifications by recording them under the reader '*'.
CREATE TABLE airlock_notification_read (
    notification_id UUID         NOT NULL REFERENCES airlock_notification (id) ON DELETE CASCADE,
    reader          VARCHAR(200) NOT NULL,
    read_at         TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (notification_id, reader)
);
INSERT INTO airlock_notification_read (notification_id, reader, read_at)
    SELECT id, '*', read_at FROM airlock_notification WHERE read_at IS NOT NULL;
-- read_at stays (unused from this version on) so a librarian of the previous version still running during a
-- rolling upgrade keeps working; a later migration drops it and airlock_notification_unread.
