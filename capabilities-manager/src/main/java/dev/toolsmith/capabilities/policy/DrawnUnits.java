package dev.toolsmith.capabilities.policy;

/**
 * Units of one shared limit (rate tokens of a bucket, calls of a quota or budget period) that this replica
 * has already taken from PostgreSQL and hands out to calls without a round trip. The shared state counted
 * them when they were drawn, so however many replicas draw, the calls made never outnumber what the
 * limit allowed; what a replica holds and does not use is given back when it settles. Thread-safe.
 */
final class DrawnUnits {

    private long available;
    private long usedSinceSettled;
    private boolean topUpRunning;
    private boolean closed;
    private long lastUsedNanos;
    private long drawnAtNanos;

    DrawnUnits(long nowNanos) {
        this.lastUsedNanos = nowNanos;
        this.drawnAtNanos = nowNanos;
    }

    /** Hands out one unit, or false when none is held (or this lease is closed). */
    synchronized boolean take(long nowNanos) {
        if (closed || available == 0) {
            return false;
        }
        available--;
        usedSinceSettled++;
        lastUsedNanos = nowNanos;
        return true;
    }

    /**
     * Records a block drawn for a call that could not wait: its first unit went to that call and was
     * counted as used by the same statement, the rest is held.
     */
    synchronized void drewAndTookOne(long block, long nowNanos) {
        available += block - 1;
        lastUsedNanos = nowNanos;
        drawnAtNanos = nowNanos;
    }

    /** Adds units a top-up drew; ends the top-up. */
    synchronized void toppedUp(long units, long nowNanos) {
        available += units;
        drawnAtNanos = nowNanos;
        topUpRunning = false;
    }

    /** Ends a top-up that drew nothing. */
    synchronized void topUpFailed() {
        topUpRunning = false;
    }

    /**
     * True (and then a top-up is running) when at most {@code lowWater} units are left and no top-up is
     * running yet: the caller must then top up and report with {@link #toppedUp} or {@link #topUpFailed}.
     */
    synchronized boolean startTopUp(long lowWater) {
        if (closed || topUpRunning || available > lowWater) {
            return false;
        }
        topUpRunning = true;
        return true;
    }

    /** Takes back a unit whose call was never sent; false when this lease has settled already. */
    synchronized boolean putBack() {
        if (closed) {
            return false;
        }
        available++;
        usedSinceSettled--;
        return true;
    }

    synchronized boolean idleSince(long nanos) {
        return lastUsedNanos < nanos && !topUpRunning;
    }

    synchronized boolean drawnBefore(long nanos) {
        return drawnAtNanos < nanos;
    }

    synchronized boolean hasUnsettledUse() {
        return usedSinceSettled != 0;
    }

    /** The use since the last settlement, counted as settled from now on. */
    synchronized long settleUse() {
        long used = usedSinceSettled;
        usedSinceSettled = 0;
        return used;
    }

    /** Gives back use taken by {@link #settleUse} whose statement failed: it is still to be settled. */
    synchronized void unsettle(long used) {
        usedSinceSettled += used;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** Closes the lease: from now on it hands out nothing. Returns what it held, unused, and its unsettled use. */
    synchronized Remainder close() {
        closed = true;
        Remainder rest = new Remainder(available, usedSinceSettled);
        available = 0;
        usedSinceSettled = 0;
        return rest;
    }

    /** What a closed lease leaves to settle: units never used, and units used but not yet settled. */
    record Remainder(long unused, long used) {
        boolean isEmpty() {
            return unused == 0 && used == 0;
        }
    }
}
