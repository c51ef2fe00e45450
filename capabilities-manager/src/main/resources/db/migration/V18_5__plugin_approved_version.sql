-- The build version of the approval a wrapped plugin runs under: a build sealed for an older approval (a replayed
-- plugin-built event) must not bring back that approval's content or looser policy.
ALTER TABLE plugin ADD COLUMN approved_version INT;
