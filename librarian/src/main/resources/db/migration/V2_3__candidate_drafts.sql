-- Find-or-build drafts (POST /tools/pending/drafts): a tool manifest the engineer's LLM drafted for a
-- capability gap that no source could fill, filed in the review queue so admins see what to look for.
-- A draft comes from no source: source_id is null and draft_gap names the gap (its normalised verb) the
-- draft was written for; exactly one of the two is set. A draft has no HTTP binding, so it can be read
-- and rejected but never approved (ReviewService refuses), and it stays out of the pending search index.
ALTER TABLE airlock_candidate ALTER COLUMN source_id DROP NOT NULL;
ALTER TABLE airlock_candidate ADD COLUMN draft_gap VARCHAR(200);
ALTER TABLE airlock_candidate ADD CONSTRAINT airlock_candidate_source_or_draft
    CHECK ((source_id IS NULL) = (draft_gap IS NOT NULL));
-- one row per revision of a gap's draft: a redelivered draft updates its row instead of adding another
CREATE UNIQUE INDEX airlock_candidate_draft ON airlock_candidate (draft_gap, revision) WHERE draft_gap IS NOT NULL;
