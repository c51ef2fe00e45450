package dev.toolsmith.ui.security.oidc;

import dev.toolsmith.ui.security.UiRole;
import java.util.Optional;

/**
 * What the session cookie holds for a user who signed in with OIDC: their name and the role the provider's
 * claim gave them at sign-in (the UI has no user list to look it up in later). Encoded as
 * {@code oidc:<role>:<name>}; a password user's cookie holds a bare user name, which may not contain ':', so
 * neither kind of session can pass for the other. The cookie is encrypted and authenticated (AES-GCM), so
 * the browser can neither read nor change it.
 */
public record OidcSessionValue(String user, UiRole role) {

    private static final String PREFIX = "oidc:";

    public String encode() {
        return PREFIX + role.wireName() + ":" + user;
    }

    public static Optional<OidcSessionValue> decode(String value) {
        if (value == null || !value.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = value.substring(PREFIX.length()).split(":", 2);
        if (parts.length != 2 || parts[1].isEmpty()) {
            return Optional.empty();
        }
        return UiRole.fromWireName(parts[0]).map(role -> new OidcSessionValue(parts[1], role));
    }
}
