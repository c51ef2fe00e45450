package dev.toolsmith.ui.security.oidc;

import io.quarkus.oidc.OIDCException;
import io.quarkus.security.AuthenticationCompletionException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.AuthenticationRedirectException;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.jose4j.jwt.consumer.InvalidJwtException;

/**
 * What a failed sign-in means to the user. quarkus-oidc ends a failed code flow with a bare 401 (or a 500 when the
 * provider cannot be reached); this failure handler of the sign-in paths answers instead with the status and message
 * the sign-in promises: 502 when the provider is down or failing, 401 when it refused the code or sent an ID token
 * that is not valid, 400 for a sign-in that cannot be completed from this browser's state.
 */
@ApplicationScoped
public class OidcSignInFailures {

    private final DiscoveryDocumentCheck discovery;

    OidcSignInFailures(DiscoveryDocumentCheck discovery) {
        this.discovery = discovery;
    }

    /** A route failure handler: answers failures of the sign-in, leaves redirects and challenges to Quarkus. */
    void handle(RoutingContext rc) {
        Throwable failure = rc.failure();
        if (failure == null || failure instanceof AuthenticationRedirectException
                || failure instanceof AuthenticationFailedException || rc.response().ended()) {
            rc.next();
            return;
        }
        OidcSignInException refusal = refusalFor(failure, discovery.problem());
        OidcSignInRoutes.LOG.infof("OIDC sign-in refused (%d): %s (%s)", refusal.status(), refusal.getMessage(),
                rootCause(failure));
        OidcRefusalPage.send(rc, refusal);
    }

    static OidcSignInException refusalFor(Throwable failure, Optional<String> discoveryProblem) {
        if (causedBy(failure, ProviderFailure.class) || unreachable(failure)) {
            return new OidcSignInException(502, "the identity provider could not be reached; try again later");
        }
        if (causedBy(failure, InvalidJwtException.class)) {
            return new OidcSignInException(401, "the identity provider's ID token is not valid");
        }
        if (failure instanceof AuthenticationCompletionException && failure.getCause() instanceof OIDCException) {
            // The token endpoint answered the code with an error (4xx: 5xx is a ProviderFailure).
            return new OidcSignInException(401, "the identity provider refused the sign-in");
        }
        if (!(failure instanceof AuthenticationCompletionException)) {
            // Not a failed code flow: quarkus-oidc could not set the provider up (discovery, keys).
            return new OidcSignInException(502, discoveryProblem
                    .orElse("the identity provider could not be reached; try again later"));
        }
        return new OidcSignInException(400, "the sign-in could not be completed: start the sign-in again");
    }

    private static boolean unreachable(Throwable failure) {
        return causedBy(failure, IOException.class) || causedBy(failure, TimeoutException.class)
                || causedBy(failure, io.netty.channel.ConnectTimeoutException.class);
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** For the log: the kind of failure only, as jose4j's messages may quote the token they reject. */
    private static String rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getName();
    }
}
