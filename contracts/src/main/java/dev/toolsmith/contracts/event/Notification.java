package dev.toolsmith.contracts.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Map;

/**
 * An alert for admins, on {@code notifications}. {@code subjectId} names what it is about. A notification
 * that reports an admin's change made in another service (so far {@link Kind#HEALTH_THRESHOLDS_CHANGED})
 * also says who made it and the state before and after: the librarian keeps those in its audit log.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Notification(String id, Kind kind, Severity severity, String title, String message,
        String subjectId, Instant createdAt, String changedBy, Map<String, Object> before,
        Map<String, Object> after) {

    /** An alert that records no change by a person. */
    public Notification(String id, Kind kind, Severity severity, String title, String message, String subjectId,
            Instant createdAt) {
        this(id, kind, severity, title, message, subjectId, createdAt, null, null, null);
    }

    public enum Kind {
        NEW_PENDING_TOOLS,
        CAPABILITY_GAP,
        BUILD_FAILED,
        PLUGIN_DISABLED,
        PLUGIN_ENABLED,
        BUDGET_SOFT_LIMIT,
        SOURCE_SCAN_FAILED,
        /** A build on {@code plugin-built} without the valid seal of its approval was refused. */
        PLUGIN_REFUSED,
        /** An admin changed a plugin's own health thresholds in the capabilities manager (audited). */
        HEALTH_THRESHOLDS_CHANGED
    }

    public enum Severity {
        INFO,
        WARNING,
        CRITICAL
    }
}
