package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.tool.AuthBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Chooses how a tool authenticates from the operation's security requirements (else the document's):
 * the first requirement whose scheme Toolsmith can fill. API keys keep their header, query or cookie
 * name; HTTP bearer and basic map directly; OAuth 2 and OpenID Connect become a bearer token the admin
 * supplies as the secret. The secret is named after the scheme so the approval's policy can fill it.
 */
final class AuthResolver {

    private final JsonNode schemes;
    private final JsonNode documentSecurity;
    private final Dereferencer refs;

    AuthResolver(JsonNode document, Dereferencer refs) {
        this.refs = refs;
        this.schemes = document.path("components").path("securitySchemes");
        this.documentSecurity = document.get("security");
    }

    AuthBinding resolve(JsonNode operation, Set<String> warnings) {
        JsonNode security = operation.has("security") ? operation.get("security") : documentSecurity;
        if (security == null || !security.isArray() || security.isEmpty()) {
            return AuthBinding.none();
        }
        List<String> unsupported = new ArrayList<>();
        for (JsonNode requirement : security) {
            if (!requirement.isObject() || requirement.isEmpty()) {
                return AuthBinding.none(); // an empty requirement makes authentication optional
            }
            List<String> names = new ArrayList<>();
            requirement.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                AuthBinding binding = bind(name);
                if (binding != null) {
                    if (names.size() > 1) {
                        warnings.add("security requirement " + names + " needs several schemes at once; only '" + name
                                + "' is bound");
                    }
                    return binding;
                }
                unsupported.add(name);
            }
        }
        warnings.add("no supported security scheme among " + unsupported + "; bound without authentication");
        return AuthBinding.none();
    }

    private AuthBinding bind(String schemeName) {
        JsonNode scheme = refs.follow(schemes.path(schemeName));
        if (scheme.isMissingNode() || !scheme.isObject()) {
            return null;
        }
        String secret = secretName(schemeName);
        String type = scheme.path("type").asText("").toLowerCase(Locale.ROOT);
        switch (type) {
            case "apikey" -> {
                String parameter = scheme.path("name").asText("");
                if (parameter.isEmpty()) {
                    return null;
                }
                return switch (scheme.path("in").asText("").toLowerCase(Locale.ROOT)) {
                    case "header" -> new AuthBinding(AuthBinding.Scheme.API_KEY_HEADER, parameter, secret);
                    case "query" -> new AuthBinding(AuthBinding.Scheme.API_KEY_QUERY, parameter, secret);
                    case "cookie" -> new AuthBinding(AuthBinding.Scheme.API_KEY_COOKIE, parameter, secret);
                    default -> null;
                };
            }
            case "http" -> {
                return switch (scheme.path("scheme").asText("").toLowerCase(Locale.ROOT)) {
                    case "bearer" -> new AuthBinding(AuthBinding.Scheme.BEARER, null, secret);
                    case "basic" -> new AuthBinding(AuthBinding.Scheme.BASIC, null, secret);
                    default -> null;
                };
            }
            case "oauth2", "openidconnect" -> {
                return new AuthBinding(AuthBinding.Scheme.BEARER, null, secret);
            }
            default -> {
                return null;
            }
        }
    }

    static String secretName(String schemeName) {
        String name = schemeName.replaceAll("[^A-Za-z0-9_.-]+", "_");
        return name.isEmpty() ? "api_secret" : name;
    }
}
