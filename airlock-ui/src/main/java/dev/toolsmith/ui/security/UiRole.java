package dev.toolsmith.ui.security;

import java.util.Locale;
import java.util.Optional;

/** What a signed-in person may do in the airlock UI. An admin can do everything a viewer can. */
public enum UiRole {
    ADMIN,
    VIEWER;

    /** The role name as used in configuration, security identities and the X-Toolsmith-Roles header. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<UiRole> fromWireName(String name) {
        for (UiRole role : values()) {
            if (role.wireName().equals(name)) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }
}
