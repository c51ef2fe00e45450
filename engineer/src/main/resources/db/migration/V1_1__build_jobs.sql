-- One build job per approved tool version: the approval it came from, where it is, and what it produced.
-- Idempotency: (tool_id, version) is unique, so a redelivered or repeated approval never builds twice.
CREATE TABLE build_job (
    id             uuid PRIMARY KEY,
    tool_id        text        NOT NULL,
    version        integer     NOT NULL,
    state          text        NOT NULL CHECK (state IN ('RECEIVED', 'GENERATING', 'VERIFYING', 'SUCCEEDED', 'FAILED')),
    approval       text        NOT NULL, -- the ToolApproved message, JSON
    plugin         text,                 -- the generated plugin manifest, JSON
    suite          text,                 -- the generated verification suite, JSON
    report         text,                 -- the verification report, JSON
    notes          text,                 -- what generation adjusted, JSON array
    failure_reason text,
    attempts       integer     NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    CONSTRAINT build_job_tool_version UNIQUE (tool_id, version)
);

-- the scheduler's scan for work and the list endpoint's filter
CREATE INDEX build_job_state_updated ON build_job (state, updated_at);
CREATE INDEX build_job_updated ON build_job (updated_at DESC);
