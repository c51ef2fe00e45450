package dev.toolsmith.sandbox;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The platform's at-rest format for tool secrets: {@code v1:<base64(iv | ciphertext+tag)>} with
 * AES-256-GCM, a random 12-byte IV and a 128-bit tag. The key is 32 bytes, configured as base64
 * (for example {@code toolsmith.secrets.key}); every service that encrypts or decrypts tool secrets
 * uses this class so the format has one definition.
 */
public final class AesGcmSecretCipher {

    public static final String PREFIX = "v1:";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    public AesGcmSecretCipher(byte[] key) {
        if (key == null || key.length != 32) {
            throw new IllegalArgumentException("the secrets key must be 32 bytes (AES-256), got "
                    + (key == null ? "none" : key.length + " bytes"));
        }
        this.key = new SecretKeySpec(key.clone(), "AES");
    }

    /** From the configured base64 key. */
    public static AesGcmSecretCipher fromBase64Key(String base64Key) {
        if (base64Key == null || base64Key.isBlank()) {
            throw new IllegalArgumentException("no secrets key configured (32 bytes, base64)");
        }
        try {
            return new AesGcmSecretCipher(Base64.getDecoder().decode(base64Key.trim()));
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("the secrets key")) {
                throw e;
            }
            throw new IllegalArgumentException("the secrets key is not valid base64");
        }
    }

    public String encrypt(String plaintext) {
        byte[] iv = new byte[IV_BYTES];
        random.nextBytes(iv);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            byte[] out = ByteBuffer.allocate(IV_BYTES + sealed.length).put(iv).put(sealed).array();
            return PREFIX + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable in this JVM", e);
        }
    }

    public String decrypt(String ciphertext) throws SecretUnavailableException {
        if (ciphertext == null || !ciphertext.startsWith(PREFIX)) {
            throw new SecretUnavailableException("the secret is not in the v1 format (v1:<base64>)");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(ciphertext.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new SecretUnavailableException("the secret's ciphertext is not valid base64");
        }
        if (raw.length < IV_BYTES + TAG_BITS / 8) {
            throw new SecretUnavailableException("the secret's ciphertext is too short");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, raw, 0, IV_BYTES));
            byte[] plain = cipher.doFinal(raw, IV_BYTES, raw.length - IV_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            // wrong key or tampered ciphertext: GCM's tag check failed; say so without any detail of the material
            throw new SecretUnavailableException("the secret could not be decrypted (wrong key or tampered ciphertext)");
        }
    }
}
