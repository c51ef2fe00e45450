package dev.toolsmith.ui.security.oidc;

import dev.toolsmith.ui.config.UiConfig;
import dev.toolsmith.ui.security.UiRole;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

/**
 * Who signed in, from the ID token quarkus-oidc has validated (signature, issuer, audience, expiry, nonce): the
 * user's name ({@code toolsmith.ui.oidc.user-claim}, else {@code sub}) and the Toolsmith role their roles claim maps
 * to ({@link OidcRoleMapping}). A name with control characters is refused (401): it would be forwarded as
 * {@code X-Toolsmith-User} and logged. A user without a Toolsmith role is refused (403).
 */
@ApplicationScoped
public class OidcSignedInUser {

    private static final Logger LOG = Logger.getLogger(OidcSignedInUser.class);

    private final UiConfig.Oidc config;
    private final OidcRoleMapping roles;

    OidcSignedInUser(UiConfig config) {
        this.config = config.oidc();
        this.roles = new OidcRoleMapping(this.config.rolesClaim(),
                new HashSet<>(this.config.adminValues().orElse(List.of())),
                new HashSet<>(this.config.viewerValues().orElse(List.of())));
    }

    /** A new session for the identity quarkus-oidc authenticated with the code flow. */
    OidcSessionValue sessionOf(SecurityIdentity identity) throws OidcSignInException {
        if (identity == null || !(identity.getPrincipal() instanceof JsonWebToken idToken) || idToken.getRawToken() == null) {
            throw new OidcSignInException(401, "the identity provider sent no ID token");
        }
        Map<String, Object> claims = claimsOf(idToken.getRawToken());
        String user = Stream.of(claims.get(config.userClaim()), claims.get("sub"))
                .filter(name -> name instanceof String s && !s.isBlank() && s.chars().noneMatch(Character::isISOControl))
                .map(String.class::cast)
                .findFirst()
                .orElseThrow(() -> new OidcSignInException(401, "the identity provider's ID token names no usable user"));
        UiRole role = roles.roleOf(claims).orElseThrow(() -> {
            LOG.infof("OIDC sign-in refused for %s: no %s value maps to a Toolsmith role", user, config.rolesClaim());
            return new OidcSignInException(403, "your account has no Toolsmith role: ask an administrator to add "
                    + "you to the Toolsmith admin or viewer group");
        });
        return new OidcSessionValue(user, role);
    }

    /** The claims as plain maps, lists and strings, which is what {@link OidcRoleMapping} walks. */
    static Map<String, Object> claimsOf(String validatedJwt) {
        String[] parts = validatedJwt.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        return new JsonObject(payload).getMap();
    }
}
