package dev.toolsmith.ui.security;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/** Fails the start when nobody could sign in: an airlock UI without users is a misconfiguration. */
@Singleton
class UsersPresentCheck {

    private static final Logger LOG = Logger.getLogger(UsersPresentCheck.class);

    void onStart(@Observes StartupEvent event, ConfiguredUsers users) {
        if (users.isEmpty()) {
            throw new IllegalStateException("no sign-in users configured: set toolsmith.ui.users.<name>="
                    + "<bcrypt-hash>:<admin|viewer> (see docs/airlock-ui.md)");
        }
        LOG.infof("%d sign-in user(s) configured", users.size());
    }
}
