package dev.toolsmith.ui;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes the session cookie the password sign-in writes (Quarkus' PersistentLoginManager format: AES-GCM under
 * SHA-256 of the session key, over {@code <expiry-millis>:pw:<session-id>:<password-fingerprint>:<user>}), for
 * tests that need a password session while the password sign-in itself is refused.
 */
final class PasswordSessionCookie {

    /** toolsmith.ui.session-key of src/test/resources/application.properties. */
    private static final String SESSION_KEY = "test-session-key-0123456789abcdef0123456789";

    /** The users' bcrypt hashes in src/test/resources/application.properties. */
    private static final java.util.Map<String, String> HASHES = java.util.Map.of(
            "admin", "$2a$10$l3Pr8gp78mJ9O1FI6jEsCutCjiF2MvX5eTWRaUeKZvklHZXe1v1cW",
            "viewer", "$2a$10$PN3PDh.3R446.tTjGaq5oeiSVKdJmMFTb6H5aV5cPo63hQ1t6FwtS");

    private PasswordSessionCookie() {}

    static String of(String user) {
        try {
            byte[] key = MessageDigest.getInstance("SHA-256").digest(SESSION_KEY.getBytes(StandardCharsets.UTF_8));
            byte[] iv = new byte[12];
            new SecureRandom().nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, iv));
            byte[] sealed = cipher.doFinal((System.currentTimeMillis() + 600_000 + ":" + new dev.toolsmith.ui.security.PasswordSession(
                    "test-session-" + user, dev.toolsmith.ui.security.PasswordSession.fingerprint(HASHES.get(user)), user)
                    .encode())
                    .getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(1 + iv.length + sealed.length)
                    .put((byte) iv.length).put(iv).put(sealed).array());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
