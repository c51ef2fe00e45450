package dev.toolsmith.ui.security;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Who may call what under {@code /api}: every signed-in user may read; only admins may change things, except
 * for the few calls a viewer needs for their own session and inbox (signing out, marking notifications read).
 * The services check roles again on the forwarded identity; this is the UI's own line of defence.
 */
public final class ApiAccessRules {

    public enum Decision { PERMIT, UNAUTHENTICATED, FORBIDDEN }

    private static final Set<String> READ_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    /** State-changing calls a viewer may make: they touch only the viewer's own session or inbox. */
    private static final List<Pattern> VIEWER_WRITES = List.of(
            Pattern.compile("^/api/session/logout$"),
            Pattern.compile("^/api/librarian/notifications/read$"),
            Pattern.compile("^/api/librarian/notifications/read-all$"),
            Pattern.compile("^/api/librarian/notifications/[A-Za-z0-9._:-]+/read$"));

    private ApiAccessRules() {}

    public static Decision decide(Optional<UiRole> role, String method, String path) {
        if (role.isEmpty()) {
            return Decision.UNAUTHENTICATED;
        }
        if (role.get() == UiRole.ADMIN || READ_METHODS.contains(method)) {
            return Decision.PERMIT;
        }
        for (Pattern allowed : VIEWER_WRITES) {
            if (allowed.matcher(path).matches()) {
                return Decision.PERMIT;
            }
        }
        return Decision.FORBIDDEN;
    }

    public static boolean isStateChanging(String method) {
        return !READ_METHODS.contains(method);
    }
}
