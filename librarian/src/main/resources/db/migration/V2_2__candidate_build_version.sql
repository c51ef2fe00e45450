-- The version the engineer builds a tool id as. A candidate's revision counts changes of one
-- (source, operation key), but the same tool id can come from several sources (or the same API
-- registered again), and the engineer builds each (tool id, version) once. Each approval therefore
-- takes one more than any earlier approval of the tool id, from any source.
ALTER TABLE airlock_candidate ADD COLUMN build_version INT;
UPDATE airlock_candidate SET build_version = revision
    WHERE status IN ('APPROVED', 'ACTIVE', 'BUILD_FAILED', 'SUPERSEDED');
CREATE INDEX airlock_candidate_tool_build ON airlock_candidate (tool_id, build_version);
