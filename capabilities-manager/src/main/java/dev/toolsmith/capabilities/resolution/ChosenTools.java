package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.step.Completion;
import dev.toolsmith.capabilities.step.PluginRunner;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.Substitution;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * A step whose verb no tool registers but that names the tool its planner chose ({@code toolId}, one of an
 * earlier result's choices): the chosen tool runs like a substitution (inputs mapped onto its schema, then the
 * policy, sandbox and schema checks of any call) and, when it succeeds, the verb is learned as its alias with
 * confidence 1, since the planner confirmed it. A chosen risky tool runs too: choosing it is the confirmation
 * a PROPOSED result asks for.
 */
@ApplicationScoped
public class ChosenTools {

    private static final Logger LOG = Logger.getLogger(ChosenTools.class);

    private final PluginRegistry registry;
    private final InputMapper mapper;
    private final PluginRunner runner;
    private final AliasBook aliases;

    public ChosenTools(PluginRegistry registry, InputMapper mapper, PluginRunner runner, AliasBook aliases) {
        this.registry = registry;
        this.mapper = mapper;
        this.runner = runner;
        this.aliases = aliases;
    }

    public Uni<Completion> run(PlanStep step, ObjectNode inputs) {
        Optional<Plugin> chosen = registry.byToolId(step.toolId());
        if (chosen.isEmpty()) {
            return failed(step, "toolId '" + step.toolId() + "' names no registered tool");
        }
        Plugin plugin = chosen.get();
        if (!plugin.serves()) {
            return failed(step, "the chosen tool " + plugin.toolId() + " is disabled: " + plugin.statusReason());
        }
        InputMapping mapping = mapper.map(inputs, plugin.manifest().inputSchema());
        if (!mapping.complete()) {
            return failed(step, "the chosen tool " + plugin.toolId() + " (" + plugin.verb() + ") needs inputs this step "
                    + "lacks: " + String.join(", ", mapping.unmappedRequired()));
        }
        Substitution confirmed = new Substitution(step.actionVerb(), 1.0, false, mapping.assignments());
        return runner.run(step, plugin, mapping.apply(inputs), confirmed).map(result -> {
            if (result.status() != StepStatus.SUBSTITUTED) {
                return Completion.of(result);
            }
            Alias alias = new Alias(VerbNormalizer.normalize(step.actionVerb()), plugin.toolId(), plugin.verb(), 1.0,
                    step.stepId(), Instant.now());
            LOG.infof("learned verb '%s' as %s (chosen by the planner)", step.actionVerb(), plugin.verb());
            return new Completion(result, () -> aliases.learn(alias), () -> aliases.remember(alias));
        });
    }

    private static Uni<Completion> failed(PlanStep step, String why) {
        return Uni.createFrom().item(Completion.of(StepResult.failed(step, why)));
    }
}
