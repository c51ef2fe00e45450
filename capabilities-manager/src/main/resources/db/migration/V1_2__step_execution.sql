-- One row per step id: claimed before the step runs, so a redelivered or resubmitted step finds the
-- row and gets the stored result instead of running again.
CREATE TABLE step_execution (
    step_id       VARCHAR(200) PRIMARY KEY,
    plan_id       VARCHAR(200) NOT NULL,
    action_verb   VARCHAR(200) NOT NULL,
    caller        VARCHAR(200),
    state         VARCHAR(20)  NOT NULL CHECK (state IN ('IN_PROGRESS', 'DONE')),
    status        VARCHAR(20),                 -- the StepStatus once DONE
    result        JSONB,                       -- the whole StepResult once DONE
    outputs       JSONB,                       -- its outputs, read by later steps' references
    claimed_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    completed_at  TIMESTAMPTZ
);
CREATE INDEX step_execution_plan ON step_execution (plan_id, claimed_at);
-- The abandoned-claim sweeper looks only at unfinished rows.
CREATE INDEX step_execution_in_progress ON step_execution (claimed_at) WHERE state = 'IN_PROGRESS';
