package dev.toolsmith.eventing.security;

import io.smallrye.config.ConfigMapping;
import java.util.Map;

/**
 * Who may call a service. Each entry of {@code toolsmith.security.api-keys} is
 * {@code <caller-name>=<sha256-hex-of-the-key>:<role>[,<role>...]}; only the hash is configured, so the
 * configuration itself never holds a usable key. Roles: admin, viewer, planner, service.
 */
@ConfigMapping(prefix = "toolsmith.security")
public interface SecurityConfig {

    Map<String, String> apiKeys();
}
