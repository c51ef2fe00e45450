package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admins' web app in a real browser (Debian's Chromium driven by playwright-core) against the running
 * platform: sign-in, a source added and scanned, a tool reviewed and approved with a policy, its build
 * and catalog search, a rejection in the audit log, and the viewer's read-only view. The script is
 * {@code airlock-ui/e2e/airlock.e2e.mjs}.
 */
@ExtendWith(Platform.class)
class AirlockUiIT {

    @Test
    void anAdminReviewsAndApprovesAToolInTheBrowser() throws Exception {
        Path log = Path.of("target/airlock-ui-e2e.log").toAbsolutePath();
        int exit = BrowserScripts.run("airlock.e2e.mjs", log, 600,
                // the README shows these: every run refreshes them
                "--screenshots", Platform.get().home().resolve("docs/screenshots").toString());
        assertThat(exit).as("the browser test's verdict; its steps are in %s", log).isZero();
    }
}
