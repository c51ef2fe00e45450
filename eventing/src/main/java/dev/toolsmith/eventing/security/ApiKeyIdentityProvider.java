package dev.toolsmith.eventing.security;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Turns a presented key into an identity by comparing its SHA-256 with the configured hashes (in
 * constant time, against every entry). A key with the {@code service} role may act for a person named in
 * {@code X-Toolsmith-User} with admin/viewer roles from {@code X-Toolsmith-Roles}: the airlock UI signs
 * people in and calls the services for them, and the audit log records the person.
 */
@ApplicationScoped
public class ApiKeyIdentityProvider implements IdentityProvider<ApiKeyAuthenticationRequest> {

    private static final Logger LOG = Logger.getLogger(ApiKeyIdentityProvider.class);

    private final List<Caller> callers;

    public ApiKeyIdentityProvider(SecurityConfig config) {
        this.callers = parse(config.apiKeys());
    }

    record Caller(String name, byte[] keyHash, Set<String> roles) {
    }

    static List<Caller> parse(Map<String, String> entries) {
        List<Caller> parsed = new ArrayList<>();
        entries.forEach((name, value) -> {
            int colon = value.indexOf(':');
            if (colon != 64 || !value.substring(0, 64).matches("[0-9a-fA-F]{64}")) {
                throw new IllegalArgumentException("toolsmith.security.api-keys." + name
                        + " must be <sha256-hex-of-key>:<role>[,<role>] (hash with: printf %s KEY | sha256sum)");
            }
            Set<String> roles = Arrays.stream(value.substring(colon + 1).split(","))
                    .map(r -> r.trim().toLowerCase(Locale.ROOT)).filter(r -> !r.isEmpty())
                    .collect(Collectors.toUnmodifiableSet());
            parsed.add(new Caller(name, HexFormat.of().parseHex(value.substring(0, 64).toLowerCase(Locale.ROOT)),
                    roles));
        });
        return List.copyOf(parsed);
    }

    /**
     * The SHA-256 of the API key of every caller with at least one of {@code roles}, by caller name: for
     * checks of a caller's credential outside HTTP (a signed {@code plan-steps} record).
     */
    public Map<String, byte[]> keyHashesWithAnyRole(Set<String> roles) {
        Map<String, byte[]> hashes = new java.util.HashMap<>();
        for (Caller caller : callers) {
            if (caller.roles().stream().anyMatch(roles::contains)) {
                hashes.put(caller.name(), caller.keyHash().clone());
            }
        }
        return Map.copyOf(hashes);
    }

    @Override
    public Class<ApiKeyAuthenticationRequest> getRequestType() {
        return ApiKeyAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(ApiKeyAuthenticationRequest request, AuthenticationRequestContext context) {
        byte[] presented = sha256(request.key());
        Caller match = null;
        for (Caller caller : callers) {
            if (MessageDigest.isEqual(caller.keyHash(), presented)) {
                match = caller;
            }
        }
        if (match == null) {
            LOG.debug("refused an unknown API key");
            return Uni.createFrom().failure(new AuthenticationFailedException("unknown API key"));
        }
        return Uni.createFrom().item(identityFor(match, request));
    }

    private static SecurityIdentity identityFor(Caller caller, ApiKeyAuthenticationRequest request) {
        String person = request.onBehalfOfUser();
        if (person != null && !person.isBlank() && caller.roles().contains(Roles.SERVICE)) {
            Set<String> delegated = request.onBehalfOfRoles() == null ? Set.of()
                    : Arrays.stream(request.onBehalfOfRoles().split(",")).map(r -> r.trim().toLowerCase(Locale.ROOT))
                            .filter(Roles.DELEGABLE::contains).collect(Collectors.toSet());
            return QuarkusSecurityIdentity.builder()
                    .setPrincipal(new QuarkusPrincipal(person.trim()))
                    .addRoles(delegated)
                    .addAttribute("via", caller.name())
                    .build();
        }
        return QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(caller.name()))
                .addRoles(caller.roles())
                .build();
    }

    static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM ships SHA-256", e);
        }
    }
}
