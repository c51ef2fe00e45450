package dev.toolsmith.ui.security;

import io.quarkus.elytron.security.common.BcryptUtil;
import java.security.GeneralSecurityException;
import org.wildfly.security.password.Password;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.util.ModularCrypt;

/** Verifies passwords against bcrypt hashes in modular crypt format, using Elytron's implementation. */
public final class BcryptPasswords {

    /**
     * Checked when the user name is unknown, so that an unknown name costs the same bcrypt work as a wrong
     * password and response times do not reveal which names exist.
     */
    private static final String DECOY_HASH = BcryptUtil.bcryptHash("decoy-password-never-matches");

    private BcryptPasswords() {}

    public static boolean matches(String plain, String hash) {
        try {
            // $2b$ and $2y$ (OpenBSD, htpasswd) are the same algorithm as $2a$ for these inputs; Elytron reads $2a$.
            String normalised = hash.replaceFirst("^\\$2[by]\\$", "\\$2a\\$");
            Password stored = ModularCrypt.decode(normalised);
            PasswordFactory factory = PasswordFactory.getInstance(
                    BCryptPassword.ALGORITHM_BCRYPT, WildFlyElytronPasswordProvider.getInstance());
            return factory.verify(factory.translate(stored), plain.toCharArray());
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Spends the same work as a real check; the result is ignored. */
    public static void burnDecoyCheck(String plain) {
        matches(plain, DECOY_HASH);
    }

    public static String hash(String plain) {
        return BcryptUtil.bcryptHash(plain);
    }
}
