package dev.toolsmith.ui.security.oidc;

import dev.toolsmith.ui.security.UiRole;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * What the session cookie holds for a user who signed in with OIDC: a random session id (what sign-out
 * revokes, {@code SessionRevocations}), their name and the role the provider's claim gave them at sign-in (the
 * UI has no user list to look it up in later). Encoded as {@code oidc:<id>:<role>:<name>}; a password user's
 * cookie starts with {@code pw:}, so neither kind of session can pass for the other. The cookie is encrypted and authenticated (AES-GCM), so
 * the browser can neither read nor change it.
 */
public record OidcSessionValue(String id, String user, UiRole role) {

    private static final String PREFIX = "oidc:";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A new session of {@code user}, with a fresh id. */
    public OidcSessionValue(String user, UiRole role) {
        this(newId(), user, role);
    }

    private static String newId() {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(id);
    }

    public String encode() {
        return PREFIX + id + ":" + role.wireName() + ":" + user;
    }

    public static Optional<OidcSessionValue> decode(String value) {
        if (value == null || !value.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = value.substring(PREFIX.length()).split(":", 3);
        if (parts.length != 3 || parts[0].isEmpty() || parts[2].isEmpty()) {
            return Optional.empty();
        }
        return UiRole.fromWireName(parts[1]).map(role -> new OidcSessionValue(parts[0], parts[2], role));
    }
}
