package dev.toolsmith.sandbox;

import java.util.Map;

/**
 * Resolves secrets from an approval's policy ({@code UsagePolicy.secrets}: name to v1 ciphertext),
 * decrypting each one only when a call asks for it.
 */
public final class PolicySecretResolver implements SecretResolver {

    private final Map<String, String> ciphertexts;
    private final AesGcmSecretCipher cipher;

    public PolicySecretResolver(Map<String, String> ciphertexts, AesGcmSecretCipher cipher) {
        this.ciphertexts = ciphertexts == null ? Map.of() : Map.copyOf(ciphertexts);
        this.cipher = cipher;
    }

    @Override
    public String resolve(String secretName) throws SecretUnavailableException {
        String sealed = ciphertexts.get(secretName);
        if (sealed == null) {
            throw new SecretUnavailableException("the policy has no secret named '" + secretName + "'");
        }
        if (cipher == null) {
            throw new SecretUnavailableException("no secrets key is configured, so secret '" + secretName
                    + "' cannot be decrypted");
        }
        try {
            return cipher.decrypt(sealed);
        } catch (SecretUnavailableException e) {
            throw new SecretUnavailableException("secret '" + secretName + "': " + e.getMessage());
        }
    }
}
