package dev.toolsmith.ui.security.oidc;

import dev.toolsmith.ui.config.UiConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Fails the start when OIDC sign-in is on but a setting it needs is missing (or a callback URL that cannot work),
 * naming every one. quarkus-oidc reads the same settings (application.properties maps them onto {@code quarkus.oidc.*}).
 */
@Singleton
class OidcSettingsCheck {

    private static final Logger LOG = Logger.getLogger(OidcSettingsCheck.class);

    void onStart(@Observes StartupEvent event, UiConfig config) {
        UiConfig.Oidc oidc = config.oidc();
        if (!oidc.enabled()) {
            return;
        }
        List<String> missing = new ArrayList<>();
        if (oidc.issuer().isEmpty()) missing.add("toolsmith.ui.oidc.issuer");
        if (oidc.clientId().isEmpty()) missing.add("toolsmith.ui.oidc.client-id");
        if (oidc.clientSecret().filter(s -> !s.isBlank()).isEmpty()) missing.add("toolsmith.ui.oidc.client-secret");
        if (oidc.redirectUri().isEmpty()) missing.add("toolsmith.ui.oidc.redirect-uri");
        else if (!OidcSignInRoutes.CALLBACK_PATH.equals(oidc.redirectUri().get().getPath())) {
            // The provider sends the browser there, and only that path finishes a sign-in.
            missing.add("toolsmith.ui.oidc.redirect-uri to the UI's public URL + " + OidcSignInRoutes.CALLBACK_PATH);
        }
        if (oidc.adminValues().isEmpty() && oidc.viewerValues().isEmpty()) {
            missing.add("toolsmith.ui.oidc.admin-values or toolsmith.ui.oidc.viewer-values");
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("OIDC sign-in is enabled but not configured: set " + String.join(", ", missing)
                    + " (see docs/airlock-ui.md)");
        }
        // The client secret is never logged.
        LOG.infof("sign-in with OIDC: issuer %s, client %s, callback %s, roles from claim '%s'",
                oidc.issuer().get(), oidc.clientId().get(), oidc.redirectUri().get(), oidc.rolesClaim());
    }
}
