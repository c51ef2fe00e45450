-- Steps belong to their caller (issue 18): step_execution.caller, written with the row by both inserts
-- (the claim and the hot path's finished-step insert), is the step id's owner from now on, not just the
-- caller a step ran as. A step id sent again by its owner gets the stored result; by anyone else, a
-- conflict (409 / a FAILED result) and nothing of the owner's. The check rides on the reads that already
-- find an existing row (the hot path's look-up, the read after a lost claim), so the column needs no new
-- index: reads by step id use the primary key, a plan's listing the plan index, then the owner.
-- Rows written before this version may name a caller taken from an unsigned Kafka field; rows without a
-- caller (steps that named none, refused DENIED) belong to nobody: every reuse of their ids is a conflict.
COMMENT ON COLUMN step_execution.caller IS 'owner: the authenticated caller that first sent this step id (REST: the API key''s name; Kafka: the signer of the plan-steps record). Only the owner gets its result again or reads it; admins and viewers read all.';
