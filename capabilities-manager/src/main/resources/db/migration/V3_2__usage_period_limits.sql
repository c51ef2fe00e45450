-- Each usage_period row carries the limits that applied at its last reservation, and PostgreSQL itself
-- refuses totals beyond them. A reservation is then one autocommitted upsert: it adds the call to the
-- day and month rows, or fails as a whole with a check violation and changes nothing. That replaced a
-- transaction of an upsert per period, a check in Java and a commit (two fewer round trips per call).
-- A lowered limit applies from the next call; NULL means no limit of that kind.
ALTER TABLE usage_period
    ADD COLUMN call_limit  BIGINT,
    ADD COLUMN spend_limit NUMERIC(24, 8),
    ADD CONSTRAINT usage_period_within_limits
        CHECK ((call_limit IS NULL OR calls <= call_limit) AND (spend_limit IS NULL OR spend <= spend_limit));
