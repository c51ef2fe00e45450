package dev.toolsmith.contracts.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/** An alert for admins, on {@code notifications}. {@code subjectId} names what it is about. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Notification(String id, Kind kind, Severity severity, String title, String message,
        String subjectId, Instant createdAt) {

    public enum Kind {
        NEW_PENDING_TOOLS,
        CAPABILITY_GAP,
        BUILD_FAILED,
        PLUGIN_DISABLED,
        PLUGIN_ENABLED,
        BUDGET_SOFT_LIMIT,
        SOURCE_SCAN_FAILED,
        /** A build on {@code plugin-built} without the valid seal of its approval was refused. */
        PLUGIN_REFUSED
    }

    public enum Severity {
        INFO,
        WARNING,
        CRITICAL
    }
}
