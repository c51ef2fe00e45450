package dev.toolsmith.ui.security;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Fails the start when nobody could sign in: an airlock UI without users is a misconfiguration (unless sign-in
 * is OIDC's, where the provider knows the users).
 */
@Singleton
class UsersPresentCheck {

    private static final Logger LOG = Logger.getLogger(UsersPresentCheck.class);

    void onStart(@Observes StartupEvent event, ConfiguredUsers users, dev.toolsmith.ui.config.UiConfig config) {
        if (config.oidc().enabled()) {
            LOG.infof("sign-in with OIDC: the %d configured password user(s) cannot sign in", users.size());
            return;
        }
        if (users.isEmpty()) {
            throw new IllegalStateException("no sign-in users configured: set toolsmith.ui.users.<name>="
                    + "<bcrypt-hash>:<admin|viewer> (see docs/airlock-ui.md)");
        }
        LOG.infof("%d sign-in user(s) configured", users.size());
    }
}
