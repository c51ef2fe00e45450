package dev.toolsmith.ui.security;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import java.util.Optional;

/** Builds and reads the security identity of a signed-in UI user. */
public final class UiIdentities {

    private UiIdentities() {}

    static SecurityIdentity of(ConfiguredUser user) {
        return of(user.name(), user.role());
    }

    /** A signed-in user with one role, however they signed in. */
    public static SecurityIdentity of(String name, UiRole role) {
        return QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(name))
                .addRole(role.wireName())
                .build();
    }

    /** The UI role of an identity, if it is a signed-in user with one. */
    public static Optional<UiRole> roleOf(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            return Optional.empty();
        }
        if (identity.hasRole(UiRole.ADMIN.wireName())) {
            return Optional.of(UiRole.ADMIN);
        }
        if (identity.hasRole(UiRole.VIEWER.wireName())) {
            return Optional.of(UiRole.VIEWER);
        }
        return Optional.empty();
    }
}
