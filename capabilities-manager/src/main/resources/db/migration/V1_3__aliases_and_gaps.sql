-- Verbs learned from confident substitutions: the next step with the verb skips the search.
CREATE TABLE verb_alias (
    verb            VARCHAR(200) PRIMARY KEY,  -- the verb in its normalised form ("convert currency")
    tool_id         VARCHAR(200) NOT NULL,
    target_verb     VARCHAR(100) NOT NULL,
    confidence      DOUBLE PRECISION NOT NULL,
    learned_from    VARCHAR(200) NOT NULL,     -- the step whose substitution taught it
    learned_at      TIMESTAMPTZ  NOT NULL DEFAULT now()
);

-- Verbs nothing could serve, counted so the librarian can prioritise find-or-build.
CREATE TABLE capability_gap (
    normalized_verb VARCHAR(200) PRIMARY KEY,
    action_verb     VARCHAR(200) NOT NULL,
    description     TEXT,
    times_seen      BIGINT       NOT NULL,
    first_seen_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    last_seen_at    TIMESTAMPTZ  NOT NULL DEFAULT now()
);
