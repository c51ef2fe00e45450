-- The airlock compares each candidate with the catalogued tools of the same verb or name (ToolCollisions):
-- look those up by index instead of reading every manifest. The expressions match the query's.
CREATE INDEX catalog_tool_version_verb ON catalog_tool_version (upper(manifest ->> 'verb'));
CREATE INDEX catalog_tool_version_name ON catalog_tool_version (lower(manifest ->> 'name'));
