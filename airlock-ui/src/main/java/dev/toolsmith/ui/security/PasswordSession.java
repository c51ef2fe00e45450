package dev.toolsmith.ui.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * What the session cookie holds for a password user: a random session id (what sign-out revokes), a
 * fingerprint of the user's password hash at sign-in (a changed password ends every earlier session) and the
 * user name. Encoded as {@code pw:<id>:<fingerprint>:<user>}; user names cannot contain ':' and an OIDC
 * session starts with {@code oidc:}, so neither kind can pass for the other. The cookie is encrypted and
 * authenticated (AES-GCM), so the browser can neither read nor change it.
 */
public record PasswordSession(String id, String passwordFingerprint, String user) {

    private static final String PREFIX = "pw:";
    private static final SecureRandom RANDOM = new SecureRandom();

    public static PasswordSession start(ConfiguredUser user) {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        return new PasswordSession(Base64.getUrlEncoder().withoutPadding().encodeToString(id),
                fingerprint(user.passwordHash()), user.name());
    }

    public String encode() {
        return PREFIX + id + ":" + passwordFingerprint + ":" + user;
    }

    public static Optional<PasswordSession> decode(String value) {
        if (value == null || !value.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = value.substring(PREFIX.length()).split(":", 3);
        if (parts.length != 3 || Arrays.stream(parts).anyMatch(String::isEmpty)) {
            return Optional.empty();
        }
        return Optional.of(new PasswordSession(parts[0], parts[1], parts[2]));
    }

    /** Whether the user still has the password this session was signed in with. */
    public boolean samePassword(ConfiguredUser current) {
        return MessageDigest.isEqual(passwordFingerprint.getBytes(StandardCharsets.US_ASCII),
                fingerprint(current.passwordHash()).getBytes(StandardCharsets.US_ASCII));
    }

    /** A short digest of the bcrypt hash (itself salted): tells hashes apart, reveals nothing of the password. */
    public static String fingerprint(String passwordHash) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(passwordHash.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 12));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
