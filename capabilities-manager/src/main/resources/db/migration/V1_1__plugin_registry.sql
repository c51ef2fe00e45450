-- The plugin registry: which plugin serves which verb. Internal plugins are registered at start-up,
-- wrapped HTTP plugins from the engineer's plugin-built events.
CREATE TABLE plugin (
    tool_id        VARCHAR(200) PRIMARY KEY,
    verb           VARCHAR(100) NOT NULL,
    plugin_type    VARCHAR(20)  NOT NULL CHECK (plugin_type IN ('INTERNAL', 'WRAPPED_HTTP')),
    status         VARCHAR(20)  NOT NULL CHECK (status IN ('ENABLED', 'DEGRADED', 'DISABLED')),
    status_reason  TEXT,
    version        INTEGER      NOT NULL,
    content_hash   VARCHAR(100) NOT NULL,
    manifest       JSONB        NOT NULL,
    -- The usage policy approved with a wrapped tool (rate, quota, budget, callers); enforced by the
    -- policy engine. NULL for internal plugins.
    policy         JSONB,
    registered_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at     TIMESTAMPTZ  NOT NULL DEFAULT now()
);
-- One plugin per verb: a step's verb must name exactly one tool.
CREATE UNIQUE INDEX plugin_verb ON plugin (upper(verb));
