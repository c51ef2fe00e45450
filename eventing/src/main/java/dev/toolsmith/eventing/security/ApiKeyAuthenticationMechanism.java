package dev.toolsmith.eventing.security;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.util.Set;

/**
 * Reads a caller's credential from {@code X-API-Key: <key>} or {@code Authorization: Bearer <key>}. A
 * request without one stays anonymous (public endpoints such as health still answer; protected ones
 * answer 401); a request with an unknown one is refused with 401.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class ApiKeyAuthenticationMechanism implements HttpAuthenticationMechanism {

    public static final String API_KEY_HEADER = "X-API-Key";
    public static final String ON_BEHALF_OF_USER = "X-Toolsmith-User";
    public static final String ON_BEHALF_OF_ROLES = "X-Toolsmith-Roles";

    private static final String BEARER = "Bearer ";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        String key = credential(context);
        if (key == null) {
            return Uni.createFrom().optional(java.util.Optional.empty());
        }
        ApiKeyAuthenticationRequest request = new ApiKeyAuthenticationRequest(key,
                context.request().getHeader(ON_BEHALF_OF_USER), context.request().getHeader(ON_BEHALF_OF_ROLES));
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(request, context));
    }

    private static String credential(RoutingContext context) {
        String apiKey = context.request().getHeader(API_KEY_HEADER);
        if (apiKey != null && !apiKey.isBlank()) {
            return apiKey.trim();
        }
        String authorization = context.request().getHeader("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            String token = authorization.substring(BEARER.length()).trim();
            return token.isEmpty() ? null : token;
        }
        return null;
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(HttpResponseStatus.UNAUTHORIZED.code(), "WWW-Authenticate",
                "Bearer realm=\"toolsmith\""));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(ApiKeyAuthenticationRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.AUTHORIZATION, "bearer"));
    }
}
