package dev.toolsmith.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** The v1 format is exactly: "v1:" + base64(12-byte IV | AES-256-GCM ciphertext with its 16-byte tag). */
class AesGcmSecretCipherTest {

    private static final byte[] KEY = new byte[32];

    static {
        for (int i = 0; i < KEY.length; i++) {
            KEY[i] = (byte) i;
        }
    }

    @Test
    void decryptsWhatAnyAesGcmImplementationWritesInTheAgreedLayout() throws Exception {
        byte[] iv = "fixed-iv-12b".getBytes(StandardCharsets.US_ASCII);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY, "AES"), new GCMParameterSpec(128, iv));
        byte[] sealed = cipher.doFinal("s3cr3t".getBytes(StandardCharsets.UTF_8));
        byte[] layout = new byte[iv.length + sealed.length];
        System.arraycopy(iv, 0, layout, 0, iv.length);
        System.arraycopy(sealed, 0, layout, iv.length, sealed.length);

        String text = "v1:" + Base64.getEncoder().encodeToString(layout);

        assertThat(AesGcmSecretCipher.fromBase64Key(Base64.getEncoder().encodeToString(KEY)).decrypt(text))
                .isEqualTo("s3cr3t");
    }

    @Test
    void encryptsIntoTheSameLayoutWithAFreshIvEachTime() throws Exception {
        AesGcmSecretCipher cipher = new AesGcmSecretCipher(KEY);
        String a = cipher.encrypt("s3cr3t");
        String b = cipher.encrypt("s3cr3t");

        assertThat(a).startsWith("v1:").isNotEqualTo(b);
        assertThat(Base64.getDecoder().decode(a.substring(3))).hasSize(12 + 6 + 16);
        assertThat(cipher.decrypt(a)).isEqualTo("s3cr3t");
    }

    @Test
    void aTamperedCiphertextOrWrongKeyIsRefused() {
        AesGcmSecretCipher cipher = new AesGcmSecretCipher(KEY);
        byte[] raw = Base64.getDecoder().decode(cipher.encrypt("s3cr3t").substring(3));
        raw[raw.length - 1] ^= 1;
        String tampered = "v1:" + Base64.getEncoder().encodeToString(raw);

        assertThatThrownBy(() -> cipher.decrypt(tampered)).isInstanceOf(SecretUnavailableException.class)
                .hasMessageContaining("could not be decrypted");
        assertThatThrownBy(() -> cipher.decrypt("plain")).hasMessageContaining("v1 format");
        assertThatThrownBy(() -> AesGcmSecretCipher.fromBase64Key(Base64.getEncoder().encodeToString(new byte[16])))
                .hasMessageContaining("32 bytes");
    }
}
