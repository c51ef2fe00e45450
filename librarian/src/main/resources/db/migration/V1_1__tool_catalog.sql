-- The tool catalog: one row per tool (its current state) and one row per version of its manifest.
-- The search index of every replica is a projection of these tables (rebuilt at start-up) and of the
-- compacted tool-catalog topic (kept current while running).

-- Every catalog change takes the next revision; replicas apply an entry only when its revision is above
-- the one they hold for that tool, so replays and late deliveries never roll a tool back.
CREATE SEQUENCE catalog_revision;

CREATE TABLE catalog_tool (
    id               VARCHAR(200) PRIMARY KEY,
    current_version  INTEGER      NOT NULL,
    status           VARCHAR(16)  NOT NULL CHECK (status IN ('active', 'disabled')),
    -- Copied from the current manifest so the catalog pages filter on indexed columns.
    namespace        VARCHAR(200),
    domain           VARCHAR(200),
    -- Who may see and call the tool (from the plugin's usage policy); empty means everyone.
    allowed_callers  TEXT[]       NOT NULL DEFAULT '{}',
    revision         BIGINT       NOT NULL,
    created_at       TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ  NOT NULL DEFAULT now()
);
CREATE INDEX catalog_tool_namespace ON catalog_tool (namespace, id);
CREATE INDEX catalog_tool_domain ON catalog_tool (domain, id);
CREATE INDEX catalog_tool_status ON catalog_tool (status, id);

CREATE TABLE catalog_tool_version (
    tool_id       VARCHAR(200) NOT NULL REFERENCES catalog_tool (id) ON DELETE CASCADE,
    version       INTEGER      NOT NULL,
    content_hash  VARCHAR(80)  NOT NULL,
    -- The manifest as indexed (with this version and hash), as JSON.
    manifest      JSONB        NOT NULL,
    -- The tool's dense vectors in the search library's binary form, and the model that made them:
    -- start-up loads them instead of embedding every tool again.
    vector_model  VARCHAR(100) NOT NULL,
    vectors       BYTEA        NOT NULL,
    created_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (tool_id, version)
);
