package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The airlock UI with OIDC sign-in switched on but not configured stops at once and names every missing
 * {@code toolsmith.ui.oidc.*} setting, rather than quarkus-oidc's own "'quarkus.oidc.auth-server-url' property must
 * be configured", which the operator never set. It runs the packaged jar; no platform is started.
 */
class OidcMissingSettingsIT {

    private static final Path HOME = Path.of(System.getProperty("toolsmith.home", "..")).toAbsolutePath().normalize();
    private static final Path JAR = HOME.resolve("airlock-ui/target/quarkus-app/quarkus-run.jar");
    private static final Path LOG = Path.of("target/missing-settings/airlock-ui-oidc.log").toAbsolutePath();
    // Generous: the JVM needs a few seconds to get this far on an idle machine.
    private static final int EXIT_WITHIN_SECONDS = 120;

    @Test
    void withOidcOnButNotConfiguredTheUiStopsAndNamesTheSettings() throws Exception {
        assertThat(JAR).as("package the airlock UI first: ./mvnw -pl airlock-ui -am package -DskipTests").exists();
        Files.createDirectories(LOG.getParent());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(List.of(java, "-jar", JAR.toString()))
                .redirectErrorStream(true)
                .redirectOutput(LOG.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("TOOLSMITH_UI_") || name.startsWith("QUARKUS_OIDC"));
        env.put("TOOLSMITH_UI_OIDC_ENABLED", "true");
        env.put("TOOLSMITH_UI_OIDC_CLIENT_ID", "airlock-ui");
        env.put("TOOLSMITH_UI_SERVICE_API_KEY", "a-service-key");
        env.put("TOOLSMITH_UI_SESSION_KEY", "a-session-key-of-more-than-32-characters-0123");
        env.put("TOOLSMITH_UI_PORT", "0"); // never collides with a running platform
        Process process = builder.start();
        if (!process.waitFor(EXIT_WITHIN_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the UI was still running after " + EXIT_WITHIN_SECONDS
                    + " s instead of stopping; output:\n" + Files.readString(LOG));
        }
        String output = Files.readString(LOG);

        assertThat(process.exitValue()).as(output).isNotZero();
        assertThat(output)
                .contains("OIDC sign-in is enabled but not configured: set toolsmith.ui.oidc.issuer, "
                        + "toolsmith.ui.oidc.client-secret, toolsmith.ui.oidc.redirect-uri, "
                        + "toolsmith.ui.oidc.admin-values or toolsmith.ui.oidc.viewer-values")
                .doesNotContain("toolsmith.ui.oidc.client-id,")
                .doesNotContain("property must be configured");
    }
}
