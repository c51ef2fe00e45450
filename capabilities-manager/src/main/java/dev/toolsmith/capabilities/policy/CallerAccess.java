package dev.toolsmith.capabilities.policy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import java.util.Optional;

/** Who may call a wrapped tool: an empty list of allowed callers means every authenticated caller. */
public final class CallerAccess {

    private CallerAccess() {
    }

    /** Why {@code caller} may not call the tool, or empty when it may. */
    public static Optional<String> refusal(String toolId, UsagePolicy policy, String caller) {
        if (caller == null || caller.isBlank()) {
            return Optional.of("no caller identity: a step must name the planner it runs for");
        }
        if (policy.allowedCallers().isEmpty() || policy.allowedCallers().contains(caller)) {
            return Optional.empty();
        }
        return Optional.of("caller '" + caller + "' is not allowed to call " + toolId
                + " (its policy allows " + policy.allowedCallers().size() + " caller"
                + (policy.allowedCallers().size() == 1 ? "" : "s") + ")");
    }
}
