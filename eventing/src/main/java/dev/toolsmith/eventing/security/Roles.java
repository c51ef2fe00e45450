package dev.toolsmith.eventing.security;

import java.util.Set;

/** The platform's roles (see docs/operations.md, "Security"). */
public final class Roles {

    /** Sources, reviews, policies: everything. */
    public static final String ADMIN = "admin";
    /** Reads what admins see, changes nothing. */
    public static final String VIEWER = "viewer";
    /** Submits plan steps and searches for tools. */
    public static final String PLANNER = "planner";
    /** Another Toolsmith service (e.g. the airlock UI acting for a signed-in user). */
    public static final String SERVICE = "service";

    /** Roles a service may act with on behalf of a person it has authenticated itself. */
    static final Set<String> DELEGABLE = Set.of(ADMIN, VIEWER);

    private Roles() {
    }
}
