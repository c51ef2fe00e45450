package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admins' web app in a real browser (Debian's Chromium driven by playwright-core) against the running
 * platform: sign-in, a source added and scanned, a tool reviewed and approved with a policy, its build
 * and catalog search, a rejection in the audit log, and the viewer's read-only view. The script is
 * {@code airlock-ui/e2e/airlock.e2e.mjs}; this test installs its one npm dependency and runs it.
 */
@ExtendWith(Platform.class)
class AirlockUiIT {

    private static final String CHROMIUM = System.getProperty("toolsmith.chromium", "/usr/bin/chromium");

    @Test
    void anAdminReviewsAndApprovesAToolInTheBrowser() throws Exception {
        assertThat(new File(CHROMIUM)).as("Chromium for the browser test (apt-get install chromium; .ci/run does)")
                .exists();
        Path scripts = Platform.get().home().resolve("airlock-ui/e2e");
        Path log = Path.of("target/airlock-ui-e2e.log").toAbsolutePath();
        run(List.of("npm", "ci", "--no-audit", "--no-fund"), scripts, log, 300);
        int exit = run(List.of("node", "airlock.e2e.mjs",
                "--base-url", "http://127.0.0.1:" + Platform.UI_PORT,
                "--credentials", Platform.get().state().resolve("credentials.env").toString(),
                // the README shows these: every run refreshes them
                "--screenshots", Platform.get().home().resolve("docs/screenshots").toString(),
                "--chromium", CHROMIUM), scripts, log, 600);
        assertThat(exit).as("the browser test's verdict; its steps are in %s", log).isZero();
    }

    private static int run(List<String> command, Path directory, Path log, int timeoutSeconds) throws Exception {
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s; see " + log);
        }
        if (command.get(0).equals("npm")) {
            assertThat(process.exitValue()).as("npm ci in %s; see %s", directory, log).isZero();
        }
        return process.exitValue();
    }
}
