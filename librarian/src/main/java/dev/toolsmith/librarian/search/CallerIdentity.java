package dev.toolsmith.librarian.search;

import dev.toolsmith.eventing.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Whose access a search applies. A planner, viewer or admin searches as itself; a {@code service} (the
 * capabilities manager, the UI) searches on behalf of the caller it names in the request, and as itself
 * when it names none.
 */
final class CallerIdentity {

    private CallerIdentity() {
    }

    static String of(SecurityIdentity identity, String requestedCaller) {
        if (identity.hasRole(Roles.SERVICE) && requestedCaller != null && !requestedCaller.isBlank()) {
            return requestedCaller.strip();
        }
        return identity.getPrincipal().getName();
    }
}
