package dev.toolsmith.capabilities.registry;

import io.smallrye.mutiny.Uni;

/**
 * What else happens, in the transaction of a {@code plugin-built} event, when a new verified build of a wrapped
 * plugin is registered (health lifts a disable it made itself). The registry owns this interface and health
 * implements it, so the registry never depends on health; a CDI event would not do, since the work is a
 * {@link Uni} that must complete inside the event's transaction.
 */
public interface NewVerifiedBuild {

    /** Runs in the caller's transaction; the caller refreshes the registry afterwards. */
    Uni<Void> registered(String toolId, int version);
}
