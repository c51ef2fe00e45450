-- Replicas draw quota and budget in blocks (UsageReservations): calls/spend count everything drawn
-- against the limits, held_calls/held_spend the part that replicas hold unused or have used without
-- settling yet. What was really used is calls - held_calls (and spend - held_spend); the limits'
-- check constraint stays on calls/spend, so drawn blocks can never pass a limit either.
ALTER TABLE usage_period
    ADD COLUMN held_calls BIGINT         NOT NULL DEFAULT 0,
    ADD COLUMN held_spend NUMERIC(24, 8) NOT NULL DEFAULT 0;
