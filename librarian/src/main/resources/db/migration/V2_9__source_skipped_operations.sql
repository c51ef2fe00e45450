-- What the last successful scan of a source could not import, one "<operation>: <reason>" per line
-- (at most 200 lines): an admin sees which operations are missing and why. Numbered apart from
-- the migrations other work adds next (out-of-order is on).
alter table airlock_source add column skipped_operations text;
