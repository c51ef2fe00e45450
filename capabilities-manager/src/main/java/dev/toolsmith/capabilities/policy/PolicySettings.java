package dev.toolsmith.capabilities.policy;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How policies are enforced (the limits themselves come with each approval). */
@ConfigMapping(prefix = "toolsmith.policy")
public interface PolicySettings {

    /**
     * Each caller's own token bucket holds this fraction of the tool's rate (at least one token), on top of
     * the tool's bucket shared by all callers. 1.0: one caller may use the tool's whole rate; 0.5: no
     * planner can take more than half of it and starve the others.
     */
    @WithDefault("1.0")
    double perCallerRateFraction();

    /** DURABLE or ASYNC; see {@link #reservationCommit()}. */
    enum CommitMode {
        DURABLE,
        ASYNC
    }

    /**
     * How quota and budget reservations commit. DURABLE (default): a reservation survives a crash of the
     * database server. ASYNC: commits return before the disk flush (about a millisecond less per wrapped
     * call here); still exact while PostgreSQL runs, but a crash of the database server may forget the
     * last fraction of a second of reservations.
     */
    @WithDefault("durable")
    CommitMode reservationCommit();

    /**
     * The most units of a shared limit (rate tokens, quota and budget calls) a replica draws at once, so
     * that calls far from every limit need no database round trip (PolicyLeases). 1: every call checks
     * PostgreSQL itself.
     */
    @WithDefault("64")
    int leaseUnits();

    /**
     * How long drawn units may wait: unused rate tokens go back to their bucket after it, quota and budget
     * use is settled this often, and a tool idle this long gives back what its replica holds.
     */
    @WithDefault("250ms")
    Duration leaseWindow();

    /** How often budget soft-limit crossings whose notice a crash interrupted are looked for. */
    @WithDefault("30s")
    Duration alertSweep();

    /** How often idle token buckets and old usage rows are removed. */
    @WithDefault("10m")
    Duration housekeepingInterval();

    /** How long per-call usage rows are kept for reports (the quota and budget counters are kept). */
    @WithDefault("62d")
    Duration usageRetention();
}
