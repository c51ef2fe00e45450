package dev.toolsmith.capabilities.wrapped;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Limits of wrapped HTTP calls that are not part of a plugin's binding. */
@ConfigMapping(prefix = "toolsmith.sandbox")
public interface SandboxSettings {

    /**
     * Lets wrapped tools reach loopback, private and link-local addresses. Off in production (an approved
     * spec must not become a way into the internal network); the local launcher and the tests turn it on
     * because their APIs run on this machine.
     */
    @WithDefault("false")
    boolean allowPrivateNetworks();

    /** TCP connect limit; the binding's timeout bounds the whole call. */
    @WithDefault("5s")
    Duration connectTimeout();

    /** Same-host redirects followed; a redirect to another host is always refused. */
    @WithDefault("3")
    int maxRedirects();
}
