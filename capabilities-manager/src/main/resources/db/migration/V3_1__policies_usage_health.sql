-- Usage policies, usage statistics and health of wrapped HTTP plugins (issue 7, docs/policies-and-health.md).

-- Bucket4j's token buckets (PostgreSQL select-for-update proxy manager), shared by every replica. One row
-- per bucket: "tool|<tool id>|<rate hash>" and "caller|<tool id>|<caller>|<rate hash>". The rate hash in
-- the key starts a fresh bucket when the policy's rate changes. expires_at (epoch ms) lets idle buckets
-- be removed.
CREATE TABLE rate_limit_bucket (
    id          VARCHAR(512) PRIMARY KEY,
    state       BYTEA,
    expires_at  BIGINT
);
CREATE INDEX rate_limit_bucket_expiry ON rate_limit_bucket (expires_at);

-- Quota and budget counters per tool and calendar period (UTC). A call reserves its unit and its cost
-- here BEFORE it is made, with the rows locked, so no number of replicas or concurrent planners can
-- make more calls than the policy allows.
CREATE TABLE usage_period (
    tool_id           VARCHAR(200) NOT NULL,
    period_kind       VARCHAR(5)   NOT NULL CHECK (period_kind IN ('DAY', 'MONTH')),
    period_start      DATE         NOT NULL,
    calls             BIGINT       NOT NULL DEFAULT 0,
    spend             NUMERIC(24, 8) NOT NULL DEFAULT 0,
    -- The budget's soft-limit notice for this month: NONE, DUE (crossed, not yet announced), SENT.
    soft_limit_alert  VARCHAR(4)   NOT NULL DEFAULT 'NONE' CHECK (soft_limit_alert IN ('NONE', 'DUE', 'SENT')),
    PRIMARY KEY (tool_id, period_kind, period_start)
);
CREATE INDEX usage_period_alert_due ON usage_period (tool_id) WHERE soft_limit_alert = 'DUE';

-- One row per wrapped call, denial or health probe: the source of usage reports and of the health
-- worker's rolling window.
CREATE TABLE plugin_call (
    id              BIGSERIAL    PRIMARY KEY,
    tool_id         VARCHAR(200) NOT NULL,
    caller          VARCHAR(200),
    kind            VARCHAR(5)   NOT NULL CHECK (kind IN ('CALL', 'PROBE')),
    outcome         VARCHAR(10)  NOT NULL CHECK (outcome IN ('SUCCEEDED', 'FAILED', 'DENIED')),
    -- True when the failure says the API is unwell (timeouts, resets, 5xx, broken responses), false
    -- for a caller's own mistake (a 4xx for bad inputs) and for denials.
    health_failure  BOOLEAN      NOT NULL,
    latency_ms      INTEGER,
    http_status     INTEGER,
    failure_kind    VARCHAR(30),
    reason          TEXT,
    cost            NUMERIC(24, 8) NOT NULL DEFAULT 0,
    called_at       TIMESTAMPTZ  NOT NULL
);
CREATE INDEX plugin_call_tool_time ON plugin_call (tool_id, called_at DESC);
CREATE INDEX plugin_call_time ON plugin_call (called_at);

-- Health state of each wrapped plugin. The worker claims due probes by moving next_probe_at forward in
-- one statement, so each probe runs on exactly one replica. Threshold columns override the configured
-- defaults for one plugin when set.
CREATE TABLE plugin_health (
    tool_id                VARCHAR(200) PRIMARY KEY,
    consecutive_failures   INTEGER      NOT NULL DEFAULT 0,
    consecutive_successes  INTEGER      NOT NULL DEFAULT 0,
    next_probe_at          TIMESTAMPTZ  NOT NULL DEFAULT now(),
    last_probe_at          TIMESTAMPTZ,
    last_probe_ok          BOOLEAN,
    last_probe_reason      TEXT,
    -- Who disabled the plugin: HEALTH re-enables by itself after recovery, ADMIN only by hand.
    disabled_by            VARCHAR(6)   CHECK (disabled_by IN ('HEALTH', 'ADMIN')),
    -- Start of the rolling window: samples before the last status change are not counted.
    window_since           TIMESTAMPTZ  NOT NULL DEFAULT now(),
    failures_to_disable    INTEGER,
    successes_to_enable    INTEGER,
    error_rate_threshold   DOUBLE PRECISION,
    error_rate_window      INTEGER,
    interval_seconds       INTEGER
);
CREATE INDEX plugin_health_due ON plugin_health (next_probe_at);

-- Every status change of a plugin, by the health worker or an admin, for the UI's history.
CREATE TABLE plugin_status_history (
    id          BIGSERIAL    PRIMARY KEY,
    tool_id     VARCHAR(200) NOT NULL,
    status      VARCHAR(20)  NOT NULL,
    reason      TEXT,
    changed_by  VARCHAR(200) NOT NULL,
    changed_at  TIMESTAMPTZ  NOT NULL DEFAULT now()
);
CREATE INDEX plugin_status_history_tool ON plugin_status_history (tool_id, changed_at DESC);
