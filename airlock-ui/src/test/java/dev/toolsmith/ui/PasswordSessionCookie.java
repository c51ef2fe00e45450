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
 * Writes the session cookie Quarkus' form login writes for a password user (its PersistentLoginManager
 * format: AES-GCM under SHA-256 of the session key, over {@code <expiry-millis>:<user>}), for tests that need
 * a password session while the form login itself is refused.
 */
final class PasswordSessionCookie {

    /** toolsmith.ui.session-key of src/test/resources/application.properties. */
    private static final String SESSION_KEY = "test-session-key-0123456789abcdef0123456789";

    private PasswordSessionCookie() {}

    static String of(String user) {
        try {
            byte[] key = MessageDigest.getInstance("SHA-256").digest(SESSION_KEY.getBytes(StandardCharsets.UTF_8));
            byte[] iv = new byte[12];
            new SecureRandom().nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, iv));
            byte[] sealed = cipher.doFinal((System.currentTimeMillis() + 600_000 + ":" + user)
                    .getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(1 + iv.length + sealed.length)
                    .put((byte) iv.length).put(iv).put(sealed).array());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
