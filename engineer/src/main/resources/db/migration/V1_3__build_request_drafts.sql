-- Find-or-build drafts: the tool manifest an LLM drafted for a build request (a specification for an
-- admin, no HTTP binding), why there is none, and its delivery into the librarian's review queue.
-- draft_wanted is set by each gap event that needs a draft or a delivery, and cleared when one is tried:
-- a failure is retried on the next gap event.
ALTER TABLE build_request ADD COLUMN draft_manifest       text;   -- JSON ToolManifest
ALTER TABLE build_request ADD COLUMN draft_error          text;
ALTER TABLE build_request ADD COLUMN draft_wanted         boolean NOT NULL DEFAULT false;
ALTER TABLE build_request ADD COLUMN draft_delivered_at   timestamptz;
ALTER TABLE build_request ADD COLUMN draft_delivery_error text;
CREATE INDEX build_request_draft_wanted ON build_request (updated_at) WHERE draft_wanted;
