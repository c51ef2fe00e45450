package dev.toolsmith.librarian.airlock.source;

import dev.toolsmith.librarian.airlock.AirlockConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;

/**
 * DOWN while a scan has run longer than {@code toolsmith.airlock.scan-timeout}, naming each such source:
 * a scan stops itself at that time, so one still running is a worker that is stuck (blocked somewhere
 * that does not time out). A liveness check, because what fixes a stuck worker is a restart; the
 * scan's lease then lets a replica scan that source again.
 */
@Liveness
@ApplicationScoped
public class ScanWorkerHealth implements HealthCheck {

    private final RunningScans scans;
    private final AirlockConfig config;

    public ScanWorkerHealth(RunningScans scans, AirlockConfig config) {
        this.scans = scans;
        this.config = config;
    }

    @Override
    public HealthCheckResponse call() {
        List<RunningScans.Running> stuck = scans.longerThan(config.scanTimeout());
        HealthCheckResponseBuilder response = HealthCheckResponse.named("Source scan worker").status(stuck.isEmpty())
                .withData("running", scans.count()).withData("scanTimeout", config.scanTimeout().toString());
        Instant now = Instant.now();
        for (RunningScans.Running scan : stuck) {
            response.withData("stuck " + scan.sourceId(), "source '" + scan.sourceName() + "' has been scanning for "
                    + scan.age(now).toSeconds() + " s on " + scan.thread());
        }
        return response.build();
    }
}
