package dev.toolsmith.engineer.jobs;

import static dev.toolsmith.eventing.ReactiveBridge.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.engineer.config.EngineerConfig;
import dev.toolsmith.eventing.logging.LogIds;
import dev.toolsmith.engineer.llm.WrapperAdvisor;
import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.engineer.verify.LiveSmokeCheck;
import dev.toolsmith.engineer.verify.VerificationSuite;
import dev.toolsmith.sandbox.AesGcmSecretCipher;
import dev.toolsmith.sandbox.ExecutionLimits;
import dev.toolsmith.sandbox.PolicySecretResolver;
import dev.toolsmith.sandbox.SecretResolver;
import dev.toolsmith.sandbox.WrappedToolExecutor;
import dev.toolsmith.engineer.wrapper.BuildResult;
import dev.toolsmith.engineer.wrapper.GeneratedWrapper;
import dev.toolsmith.engineer.wrapper.WrapperBuilder;
import dev.toolsmith.engineer.wrapper.WrapperGenerationException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Builds the jobs waiting in the database, on a worker thread: claim (RECEIVED → GENERATING), generate
 * the plugin and its suite (→ VERIFYING, both stored), verify against the stub, finish (SUCCEEDED or
 * FAILED, with the plugin-built event in the same transaction). Each step commits before the next one
 * starts, so a crash leaves the job in a non-final state; the scan picks up such jobs again once they
 * have not moved for {@code toolsmith.engineer.resume-after}, and at start-up. The claim is a
 * conditional update, so two replicas never build the same job at once.
 *
 * <p>A build's log lines carry its build id and, once the approval is read, the tool id and version in the
 * MDC ({@code tool=… version=… build=…} in the text format; docs/operations.md, "Logs").
 */
@ApplicationScoped
public class BuildRunner {

    private static final Logger LOG = Logger.getLogger(BuildRunner.class);

    private final BuildJobs jobs;
    private final WrapperBuilder builder;
    private final EngineerConfig config;
    private final ObjectMapper mapper;
    private final AtomicBoolean running = new AtomicBoolean();
    private final LiveSmokeCheck liveCheck;
    private final WrapperAdvisor advisor;

    public BuildRunner(BuildJobs jobs, WrapperBuilder builder, EngineerConfig config, ContractCodec codec,
            WrappedToolExecutor executor, WrapperAdvisor advisor) {
        this.liveCheck = new LiveSmokeCheck(executor);
        this.advisor = advisor;
        this.jobs = jobs;
        this.builder = builder;
        this.config = config;
        this.mapper = codec.mapper();
    }

    /** Scans for work every {@code toolsmith.engineer.scan-interval}. */
    @Scheduled(every = "${toolsmith.engineer.scan-interval:1s}", delayed = "${toolsmith.engineer.scan-delay:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public void scan() {
        if (!running.compareAndSet(false, true)) {
            return;
        }
        try {
            List<UUID> waiting;
            do {
                OffsetDateTime staleBefore = BuildJobs.now().minus(config.resumeAfter());
                waiting = await(() -> Panache.withSession(() -> jobs.claimable(staleBefore, config.batchSize())));
                for (UUID id : waiting) {
                    build(id);
                }
            } while (waiting.size() == config.batchSize());
        } catch (RuntimeException e) {
            LOG.warnf(e, "build scan failed; it runs again on the next tick");
        } finally {
            running.set(false);
        }
    }

    void build(UUID id) {
        try (LogIds ids = LogIds.open().put("buildId", id)) { // the scan's thread builds job after job
            build(id, ids);
        }
    }

    private void build(UUID id, LogIds ids) {
        OffsetDateTime staleBefore = BuildJobs.now().minus(config.resumeAfter());
        BuildJob job = await(() -> Panache.withTransaction(() -> jobs.claim(id, staleBefore)));
        if (job == null) {
            return; // another build took it
        }
        ToolApproved approved;
        try {
            approved = mapper.readValue(job.approval, ToolApproved.class);
        } catch (Exception e) {
            finish(id, null, new BuildResult(null, null, null, "the stored approval cannot be read: " + e.getMessage()));
            return;
        }
        ids.put("toolId", approved.toolId()).put("toolVersion", approved.version());
        LOG.infof("building %s v%d (attempt %d)", approved.toolId(), approved.version(), job.attempts);
        BuildResult result;
        try {
            // LLM help (when on) may only change the description and add a search tag; the suite verifies it as usual
            GeneratedWrapper wrapper = advisor.help(approved, builder.generate(approved));
            VerificationSuite suite = builder.suite(approved, wrapper);
            await(() -> Panache.withTransaction(() -> jobs.verifying(id, wrapper, suite)));
            result = liveSmoke(builder.verify(wrapper, suite));
        } catch (WrapperGenerationException e) {
            result = new BuildResult(null, null, null, "generation failed: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.errorf(e, "build of %s v%d failed unexpectedly", approved.toolId(), approved.version());
            result = new BuildResult(null, null, null, "the build failed unexpectedly: " + e);
        }
        finish(id, approved, result);
        LOG.infof("built %s v%d: %s", approved.toolId(), approved.version(),
                result.succeeded() ? "verified" : "failed: " + result.failureReason());
    }

    /** With {@code live-smoke.enabled}, a passed build must also pass one call of its probe against the real API. */
    private BuildResult liveSmoke(BuildResult verified) {
        if (!config.liveSmoke().enabled() || !verified.succeeded()) {
            return verified;
        }
        GeneratedWrapper wrapper = verified.wrapper();
        AesGcmSecretCipher cipher = config.secretsKey().filter(k -> !k.isBlank())
                .map(AesGcmSecretCipher::fromBase64Key).orElse(null);
        SecretResolver secrets = new PolicySecretResolver(wrapper.policy().secrets(), cipher);
        ExecutionLimits limits = new ExecutionLimits(config.liveSmoke().allowPrivateNetworks(),
                ExecutionLimits.DEFAULT_MAX_REDIRECTS, ExecutionLimits.DEFAULT_CONNECT_TIMEOUT_MS, java.util.Set.of());
        CaseResult live = liveCheck.probe(wrapper.plugin(), secrets, limits);
        VerificationReport report = LiveSmokeCheck.withLiveCase(verified.report(), live);
        return report.passed() ? new BuildResult(wrapper, verified.suite(), report, null)
                : new BuildResult(wrapper, verified.suite(), report, "the live health probe failed: " + live.detail());
    }

    private void finish(UUID id, ToolApproved approved, BuildResult result) {
        ToolApproved subject = approved != null ? approved : fallbackApproval(id);
        await(() -> Panache.withTransaction(() -> jobs.finish(id, subject, result)));
    }

    private ToolApproved fallbackApproval(UUID id) {
        BuildJob job = await(() -> Panache.withSession(() -> BuildJob.<BuildJob>findById(id)));
        return new ToolApproved(job.toolId, Math.max(1, job.version), null, null, null, null, null, null, null);
    }
}
