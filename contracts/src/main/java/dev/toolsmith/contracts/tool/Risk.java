package dev.toolsmith.contracts.tool;

/** What a tool can do to the world; decides whether it may ever be substituted automatically. */
public enum Risk {
    READ_ONLY,
    WRITE_LOCAL,
    WRITE_REMOTE,
    DESTRUCTIVE;

    /** Only tools that cannot change anything outside Toolsmith may run without a planner's confirmation. */
    public boolean autoSubstitutable() {
        return this == READ_ONLY || this == WRITE_LOCAL;
    }
}
