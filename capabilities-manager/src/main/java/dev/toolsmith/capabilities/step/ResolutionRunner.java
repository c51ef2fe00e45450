package dev.toolsmith.capabilities.step;

import dev.toolsmith.capabilities.registry.AliasBook;
import dev.toolsmith.capabilities.resolution.Resolution;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepStatus;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Carries out what resolution decided for a novel verb: an answer is recorded as it is; a substitute runs
 * through the {@link PluginRunner} like any plugin and, when it substitutes, its verb is learned as an alias
 * in the result's transaction (and remembered in memory once that commits).
 */
@ApplicationScoped
public class ResolutionRunner {

    private static final Logger LOG = Logger.getLogger(ResolutionRunner.class);

    private final PluginRunner runner;
    private final AliasBook aliases;

    public ResolutionRunner(PluginRunner runner, AliasBook aliases) {
        this.runner = runner;
        this.aliases = aliases;
    }

    public Uni<Completion> carryOut(PlanStep step, Resolution resolution) {
        if (resolution instanceof Resolution.Answered answered) {
            return Uni.createFrom().item(new Completion(answered.result(), answered.alsoInTransaction(), () -> {
            }));
        }
        Resolution.Substitute substitute = (Resolution.Substitute) resolution; // the only other kind (sealed)
        return runner.run(step, substitute.plugin(), substitute.inputs(), substitute.substitution()).map(result -> {
            if (result.status() != StepStatus.SUBSTITUTED) {
                return Completion.of(result);
            }
            LOG.infof("learned verb '%s' as %s (%s)", step.actionVerb(), substitute.plugin().verb(), substitute.why());
            return new Completion(result, () -> aliases.learn(substitute.alias()),
                    () -> aliases.remember(substitute.alias()));
        });
    }
}
