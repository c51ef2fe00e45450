package dev.toolsmith.engineer.jobs;

/** Where a build job is. RECEIVED, GENERATING and VERIFYING are resumed after a crash; the others are final. */
public enum BuildState {
    RECEIVED,
    GENERATING,
    VERIFYING,
    SUCCEEDED,
    FAILED;

    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED;
    }
}
