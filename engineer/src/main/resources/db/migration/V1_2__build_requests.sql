-- Capability gaps recorded as build requests for admins: one row per normalised verb.
CREATE TABLE build_request (
    id              uuid PRIMARY KEY,
    normalized_verb text        NOT NULL UNIQUE,
    action_verb     text,
    description     text,
    input_names     text,        -- JSON array
    times_seen      bigint      NOT NULL,
    candidates      integer     NOT NULL,
    status          text        NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
