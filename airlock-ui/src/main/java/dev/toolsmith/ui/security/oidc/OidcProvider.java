package dev.toolsmith.ui.security.oidc;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import dev.toolsmith.ui.config.UiConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.MalformedURLException;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The OIDC provider as its discovery document ({@code <issuer>/.well-known/openid-configuration}) describes
 * it: fetched on the first sign-in and then kept (a failed fetch is retried on the next sign-in), together
 * with the ID token validator, which fetches and caches the provider's JWKS (and refetches it when a token
 * names a key it does not know, so key rotation needs no restart).
 */
@ApplicationScoped
public class OidcProvider {

    private static final Logger LOG = Logger.getLogger(OidcProvider.class);
    private static final int TIMEOUT_MILLIS = 10_000;

    private final UiConfig.Oidc config;
    private volatile Discovered discovered;

    OidcProvider(UiConfig config) {
        this.config = config.oidc();
    }

    record Discovered(OIDCProviderMetadata metadata, IDTokenValidator validator) {}

    /** Blocking: call from a worker thread. */
    Discovered discovered() throws OidcSignInException {
        Discovered known = discovered;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (discovered == null) {
                discovered = discover();
            }
            return discovered;
        }
    }

    private Discovered discover() throws OidcSignInException {
        Issuer issuer = new Issuer(config.issuer().orElseThrow());
        try {
            OIDCProviderMetadata metadata = OIDCProviderMetadata.resolve(issuer, TIMEOUT_MILLIS, TIMEOUT_MILLIS);
            requireEndpoints(metadata);
            IDTokenValidator validator = new IDTokenValidator(metadata.getIssuer(),
                    new ClientID(config.clientId().orElseThrow()), signingAlgorithm(metadata),
                    metadata.getJWKSetURI().toURL());
            LOG.infof("OIDC provider %s discovered", issuer);
            return new Discovered(metadata, validator);
        } catch (OidcSignInException e) {
            throw e;
        } catch (GeneralException | IOException | RuntimeException e) {
            LOG.warnf("OIDC discovery at %s failed: %s", issuer, e.getMessage());
            throw new OidcSignInException(502, "the identity provider could not be reached; try again later");
        }
    }

    /**
     * The endpoints a sign-in needs. Discovery documents may leave them out (OAuth metadata makes some
     * optional); a provider without them is misconfigured, which the admin must hear about in words, not
     * as a failure in the middle of a sign-in.
     */
    static void requireEndpoints(OIDCProviderMetadata metadata) throws OidcSignInException {
        List<String> missing = new ArrayList<>();
        if (metadata.getAuthorizationEndpointURI() == null) {
            missing.add("authorization_endpoint");
        }
        if (metadata.getTokenEndpointURI() == null) {
            missing.add("token_endpoint");
        }
        if (metadata.getJWKSetURI() == null) {
            missing.add("jwks_uri");
        }
        if (!missing.isEmpty()) {
            LOG.warnf("OIDC discovery document of %s lacks %s", metadata.getIssuer(), String.join(", ", missing));
            throw new OidcSignInException(502, "the identity provider's discovery document lacks "
                    + String.join(", ", missing) + ", so sign-in cannot work; ask an administrator to check the provider");
        }
    }

    /** RS256 (every provider must offer it) unless the provider signs ID tokens with something else only. */
    private static JWSAlgorithm signingAlgorithm(OIDCProviderMetadata metadata) throws MalformedURLException {
        List<JWSAlgorithm> offered = metadata.getIDTokenJWSAlgs();
        if (offered == null || offered.isEmpty() || offered.contains(JWSAlgorithm.RS256)) {
            return JWSAlgorithm.RS256;
        }
        return offered.get(0);
    }
}
