package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the airlock UI's browser scripts ({@code airlock-ui/e2e/*.e2e.mjs}, playwright-core driving
 * Debian's Chromium) against the test platform, after installing their one npm dependency (once per test run).
 */
final class BrowserScripts {

    static final String CHROMIUM = System.getProperty("toolsmith.chromium", "/usr/bin/chromium");
    /** Whether this test run installed the scripts' dependency already: every script shares that node_modules. */
    private static boolean installed;

    private BrowserScripts() {
    }

    /** @return the script's exit status; its output is appended to {@code log} */
    static int run(String script, Path log, int timeoutSeconds, String... options) throws Exception {
        assertThat(new File(CHROMIUM)).as("Chromium for the browser test (apt-get install chromium; .ci/run does)")
                .exists();
        Path scripts = Platform.get().home().resolve("airlock-ui/e2e");
        synchronized (BrowserScripts.class) {
            if (!installed) {
                run(List.of("npm", "ci", "--no-audit", "--no-fund"), scripts, log, 300);
                installed = true;
            }
        }
        List<String> command = new ArrayList<>(List.of("node", script,
                "--base-url", "http://127.0.0.1:" + Platform.UI_PORT,
                "--credentials", Platform.get().state().resolve("credentials.env").toString(),
                "--chromium", CHROMIUM));
        command.addAll(List.of(options));
        return run(command, scripts, log, timeoutSeconds);
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
