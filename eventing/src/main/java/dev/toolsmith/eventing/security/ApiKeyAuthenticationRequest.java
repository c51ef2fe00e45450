package dev.toolsmith.eventing.security;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/**
 * A presented API key or bearer token, plus the person a service says it acts for (only honoured when
 * the key itself carries the service role).
 */
public class ApiKeyAuthenticationRequest extends BaseAuthenticationRequest {

    private final String key;
    private final String onBehalfOfUser;
    private final String onBehalfOfRoles;

    public ApiKeyAuthenticationRequest(String key, String onBehalfOfUser, String onBehalfOfRoles) {
        this.key = key;
        this.onBehalfOfUser = onBehalfOfUser;
        this.onBehalfOfRoles = onBehalfOfRoles;
    }

    public String key() {
        return key;
    }

    public String onBehalfOfUser() {
        return onBehalfOfUser;
    }

    public String onBehalfOfRoles() {
        return onBehalfOfRoles;
    }
}
