-- Transactional outbox: a state change and the event announcing it commit in one transaction;
-- the relay publishes rows to Kafka after commit and marks them published.
CREATE TABLE outbox_event (
    id            UUID PRIMARY KEY,           -- the CloudEvents id consumers deduplicate by
    topic         VARCHAR(200) NOT NULL,
    message_key   VARCHAR(400),
    event_type    VARCHAR(200) NOT NULL,
    envelope      TEXT         NOT NULL,      -- the whole CloudEvents envelope as JSON
    created_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    published_at  TIMESTAMPTZ
);
-- The relay only ever looks for unpublished rows, oldest first.
CREATE INDEX outbox_event_unpublished ON outbox_event (created_at) WHERE published_at IS NULL;
CREATE INDEX outbox_event_published ON outbox_event (published_at) WHERE published_at IS NOT NULL;

-- Idempotent consumption: an event id is applied once per consumer, in the same transaction as its effect.
CREATE TABLE processed_event (
    event_id      VARCHAR(200) NOT NULL,
    consumer      VARCHAR(200) NOT NULL,
    processed_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, consumer)
);
CREATE INDEX processed_event_age ON processed_event (processed_at);
