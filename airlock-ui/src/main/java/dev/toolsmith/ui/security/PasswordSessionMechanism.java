package dev.toolsmith.ui.security;

import dev.toolsmith.ui.config.UiConfig;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Restores a password user's session from the session cookie ({@link PasswordSession}), and renews it. It is
 * refused when signed out on the server ({@link SessionRevocations}), when the user no longer exists, or when
 * the user's password changed since. The role is looked up again in the configuration, so a changed role
 * applies at once. With OIDC sign-in on, the password users are off: their sessions are left to
 * {@code OidcSessionMechanism}, which refuses them.
 */
@Singleton
public class PasswordSessionMechanism extends SessionCookieMechanism {

    private static final int PRIORITY = DEFAULT_PRIORITY + 500;

    private final ConfiguredUsers users;
    private final SessionRevocations revocations;

    PasswordSessionMechanism(UiConfig config, SessionCookie sessionCookie, ConfiguredUsers users,
            SessionRevocations revocations) {
        super(!config.oidc().enabled(), sessionCookie, PRIORITY);
        this.users = users;
        this.revocations = revocations;
    }

    @Override
    protected Restored read(String value) {
        Optional<PasswordSession> session = PasswordSession.decode(value);
        if (session.isEmpty()) {
            return Restored.refused("not a password session");
        }
        if (revocations.isRevoked(session.get().id())) {
            return Restored.refused("signed out");
        }
        Optional<ConfiguredUser> user = users.find(session.get().user());
        if (user.isEmpty()) {
            return Restored.refused("the session's user no longer exists");
        }
        if (!session.get().samePassword(user.get())) {
            return Restored.refused("the password changed since this session signed in");
        }
        return Restored.as(session.get().encode(), UiIdentities.of(user.get()));
    }
}
