-- The airlock: external tool sources, the candidates they offer (the review queue), capability gaps
-- and their matches, the audit log and admin notifications. Owned by dev.toolsmith.librarian.airlock.

CREATE TABLE airlock_source (
    id                 UUID PRIMARY KEY,
    name               VARCHAR(200)  NOT NULL,
    type               VARCHAR(16)   NOT NULL CHECK (type IN ('openapi', 'git', 'marketplace', 'directory')),
    url                VARCHAR(2000) NOT NULL,
    -- git only: the branch and the folder of manifest files
    branch             VARCHAR(200),
    path               VARCHAR(500),
    interval_seconds   INTEGER       NOT NULL CHECK (interval_seconds >= 60),
    suspend_on_change  BOOLEAN       NOT NULL DEFAULT FALSE,
    -- NEW (never scanned), SCANNING, OK, FAILED
    status             VARCHAR(16)   NOT NULL,
    scan_started_at    TIMESTAMPTZ,
    last_scan_at       TIMESTAMPTZ,
    next_scan_at       TIMESTAMPTZ,
    last_error         TEXT,
    found_count        INTEGER       NOT NULL DEFAULT 0,
    new_count          INTEGER       NOT NULL DEFAULT 0,
    changed_count      INTEGER       NOT NULL DEFAULT 0,
    skipped_count      INTEGER       NOT NULL DEFAULT 0,
    created_by         VARCHAR(200)  NOT NULL,
    created_at         TIMESTAMPTZ   NOT NULL DEFAULT now(),
    updated_at         TIMESTAMPTZ   NOT NULL DEFAULT now()
);
CREATE INDEX airlock_source_due ON airlock_source (next_scan_at) WHERE type <> 'directory';

-- One row per revision of a candidate; a candidate is (source, operation key). A rescan that finds an
-- approved candidate changed adds the next revision; a pending one is updated in place.
CREATE TABLE airlock_candidate (
    id              UUID PRIMARY KEY,
    source_id       UUID          NOT NULL REFERENCES airlock_source (id) ON DELETE CASCADE,
    operation_key   VARCHAR(1000) NOT NULL,
    revision        INTEGER       NOT NULL,
    tool_id         VARCHAR(200)  NOT NULL,
    -- PENDING, APPROVED (building), ACTIVE, BUILD_FAILED, REJECTED, SUPERSEDED
    status          VARCHAR(16)   NOT NULL,
    content_hash    VARCHAR(80)   NOT NULL,
    verb            VARCHAR(100)  NOT NULL,
    name            VARCHAR(64)   NOT NULL,
    risk            VARCHAR(16)   NOT NULL,
    risk_override   VARCHAR(16),
    manifest        JSONB         NOT NULL,
    operation       JSONB,
    -- JSON arrays are kept as text: Hibernate Reactive maps JSONB to objects only
    warnings        TEXT,
    -- for a changed tool: what differs from the approved revision
    diff            TEXT,
    -- the usage policy as approved, secrets only as ciphertexts
    policy          JSONB,
    decided_by      VARCHAR(200),
    decided_at      TIMESTAMPTZ,
    reject_reason   TEXT,
    build_report    JSONB,
    build_failure   TEXT,
    vector_model    VARCHAR(100),
    vectors         BYTEA,
    discovered_at   TIMESTAMPTZ   NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ   NOT NULL DEFAULT now(),
    UNIQUE (source_id, operation_key, revision)
);
CREATE INDEX airlock_candidate_status ON airlock_candidate (status, discovered_at);
CREATE INDEX airlock_candidate_tool ON airlock_candidate (tool_id, revision);

CREATE TABLE airlock_gap (
    normalized_verb  VARCHAR(200) PRIMARY KEY,
    action_verb      VARCHAR(200) NOT NULL,
    description      TEXT,
    input_names      TEXT,
    times_seen       BIGINT       NOT NULL,
    first_seen_at    TIMESTAMPTZ  NOT NULL,
    last_seen_at     TIMESTAMPTZ  NOT NULL
);

CREATE TABLE airlock_gap_match (
    normalized_verb  VARCHAR(200) NOT NULL REFERENCES airlock_gap (normalized_verb) ON DELETE CASCADE,
    candidate_id     UUID         NOT NULL REFERENCES airlock_candidate (id) ON DELETE CASCADE,
    score            DOUBLE PRECISION NOT NULL,
    confidence       DOUBLE PRECISION NOT NULL,
    matched_at       TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (normalized_verb, candidate_id)
);
CREATE INDEX airlock_gap_match_candidate ON airlock_gap_match (candidate_id);

CREATE TABLE airlock_audit (
    id            UUID PRIMARY KEY,
    at            TIMESTAMPTZ  NOT NULL,
    actor         VARCHAR(200) NOT NULL,
    action        VARCHAR(40)  NOT NULL,
    subject_type  VARCHAR(40)  NOT NULL,
    subject_id    VARCHAR(200) NOT NULL,
    summary       TEXT         NOT NULL,
    before_state  JSONB,
    after_state   JSONB
);
CREATE INDEX airlock_audit_at ON airlock_audit (at DESC);
CREATE INDEX airlock_audit_subject ON airlock_audit (subject_id, at DESC);

CREATE TABLE airlock_notification (
    id          UUID PRIMARY KEY,
    kind        VARCHAR(40)  NOT NULL,
    severity    VARCHAR(16)  NOT NULL,
    title       VARCHAR(300) NOT NULL,
    message     TEXT,
    subject_id  VARCHAR(200),
    created_at  TIMESTAMPTZ  NOT NULL,
    read_at     TIMESTAMPTZ
);
CREATE INDEX airlock_notification_created ON airlock_notification (created_at DESC);
CREATE INDEX airlock_notification_unread ON airlock_notification (created_at DESC) WHERE read_at IS NULL;
