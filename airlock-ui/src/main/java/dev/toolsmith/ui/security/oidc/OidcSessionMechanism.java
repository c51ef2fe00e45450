package dev.toolsmith.ui.security.oidc;

import dev.toolsmith.ui.config.UiConfig;
import dev.toolsmith.ui.security.SessionCookie;
import dev.toolsmith.ui.security.SessionCookieMechanism;
import dev.toolsmith.ui.security.SessionRevocations;
import dev.toolsmith.ui.security.UiIdentities;
import jakarta.inject.Singleton;

/**
 * Restores an OIDC user's session from the form login's session cookie. The form mechanism cannot do it: it
 * turns the cookie into a user name and looks the role up in {@code toolsmith.ui.users}, and on renewal it
 * rewrites the cookie with the identity's principal name, which would drop the role the provider gave. So this
 * mechanism, tried before the form mechanism (higher priority), reads and renews the same cookie itself. With
 * OIDC off it does nothing and the form login works as before.
 */
@Singleton
public class OidcSessionMechanism extends SessionCookieMechanism {

    /** Above the form mechanism's default priority, so it sees the session cookie first. */
    private static final int PRIORITY = DEFAULT_PRIORITY + 1000;

    private final SessionRevocations revocations;

    OidcSessionMechanism(UiConfig config, SessionCookie sessionCookie, SessionRevocations revocations) {
        super(config.oidc().enabled(), sessionCookie, PRIORITY);
        this.revocations = revocations;
    }

    @Override
    protected Restored read(String value) {
        return OidcSessionValue.decode(value)
                .filter(session -> !revocations.isRevoked(session.id())) // signed out: a copy of the cookie is refused
                .map(session -> Restored.as(session.encode(), UiIdentities.of(session.user(), session.role())))
                // A password user's session while OIDC is on: the password users are off.
                .orElseGet(() -> Restored.refused("not a single sign-on session"));
    }
}
