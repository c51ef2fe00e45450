-- Issue 23: one verb normaliser for every service (contracts' VerbNormalizer). It splits camelCase at any
-- Unicode capital ("ConvertÜberweisung" is now "convert überweisung", was "convertüberweisung") and treats
-- control characters as separators. Keys made only of printable ASCII normalise exactly as before. A stored
-- key with any other character may have been built the old way, and the original verb is not stored, so it
-- cannot be re-keyed: it is dropped, and the next step with that verb searches and learns it again.
DELETE FROM verb_alias WHERE verb !~ '^[ -~]*$';
