package dev.toolsmith.contracts.airlock;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Ed25519 keys of approval seals as configured: the librarian's private key in PKCS#8, the public key
 * others verify with in X.509 SubjectPublicKeyInfo, both DER and base64 (what
 * {@code openssl genpkey -algorithm ed25519 -outform DER | base64} and {@code openssl pkey -pubout} give).
 */
public final class ApprovalKeys {

    public static final String ALGORITHM = "Ed25519";

    private ApprovalKeys() {
    }

    static PrivateKey privateKey(String base64, String setting) {
        try {
            return KeyFactory.getInstance(ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(der(base64, setting)));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(setting + " is not a base64 PKCS#8 Ed25519 private key: " + e.getMessage());
        }
    }

    public static PublicKey publicKey(String base64, String setting) {
        try {
            return KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(der(base64, setting)));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(setting + " is not a base64 X.509 Ed25519 public key: " + e.getMessage());
        }
    }

    private static byte[] der(String base64, String setting) {
        if (base64 == null || base64.isBlank()) {
            throw new IllegalArgumentException(setting + " is not set");
        }
        try {
            return Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(setting + " is not base64: " + e.getMessage());
        }
    }
}
