package dev.toolsmith.capabilities.step;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.execution.PluginExecutors;
import dev.toolsmith.capabilities.registry.Alias;
import dev.toolsmith.capabilities.registry.AliasBook;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.resolution.ChosenTools;
import dev.toolsmith.capabilities.resolution.InputMapper;
import dev.toolsmith.capabilities.resolution.InputMapping;
import dev.toolsmith.capabilities.resolution.NovelVerbResolver;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.Substitution;
import dev.toolsmith.eventing.tracing.Tracing;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import org.jboss.logging.MDC;

/**
 * The one code path every step takes, whichever door it came through (Kafka {@code plan-steps} or
 * {@code POST /steps}): a registered verb runs its plugin; a learned alias runs the tool it was learned
 * for; a step naming the tool its planner chose ({@code toolId}) runs that tool ({@link ChosenTools}); anything
 * else goes to the {@link NovelVerbResolver}; what those two decide, the {@link ResolutionRunner} carries out. Must be called on a Vert.x duplicated
 * context of the step's own (the REST request's, or the one {@link StepDispatcher} makes).
 */
@ApplicationScoped
public class StepService {

    private final PluginRegistry registry;
    private final AliasBook aliases;
    private final InputMapper mapper;
    private final PluginExecutors executors;
    private final PluginRunner runner;
    private final StepFlows flows;
    private final NovelVerbResolver novel;
    private final ChosenTools chosen;
    private final ResolutionRunner resolutions;
    private final Tracing tracing;
    private final ConcurrentMap<String, Running> inFlight = new ConcurrentHashMap<>();

    /** A step running here, and whose it is. */
    private record Running(String caller, CompletableFuture<StepOutcome> outcome) {
    }

    public StepService(PluginRegistry registry, AliasBook aliases, InputMapper mapper, PluginExecutors executors,
            PluginRunner runner, StepFlows flows, NovelVerbResolver novel, ChosenTools chosen,
            ResolutionRunner resolutions, Tracing tracing) {
        this.registry = registry;
        this.aliases = aliases;
        this.mapper = mapper;
        this.executors = executors;
        this.runner = runner;
        this.flows = flows;
        this.novel = novel;
        this.chosen = chosen;
        this.resolutions = resolutions;
        this.tracing = tracing;
    }

    public Uni<StepOutcome> process(PlanStep step) {
        MDC.put("stepId", step.stepId());
        MDC.put("planId", step.planId());
        String traceId = tracing.currentTraceId();
        if (traceId != null) {
            MDC.put("traceId", traceId); // finds the step's log lines from its trace, and the other way round
        }
        CompletableFuture<StepOutcome> mine = new CompletableFuture<>();
        Running entry = new Running(step.caller(), mine);
        Running running = inFlight.putIfAbsent(step.stepId(), entry);
        if (running != null) {
            if (!StoredStep.belongsTo(running.caller(), step.caller())) {
                // Another caller sent this step id too and its step is running here: never share its outcome.
                // Which of the two owns the id is the database's to say (look-up, claim or insert), as on two replicas.
                return route(step);
            }
            // The same step id is running here already: share its result instead of queueing on its row lock.
            return Uni.createFrom().completionStage(running.outcome()
                    .thenApply(o -> o.result() == null || o.kind() == StepOutcome.Kind.CONFLICT ? o
                            : StepOutcome.stored(o.result())));
        }
        return route(step).onItemOrFailure().invoke((outcome, failure) -> {
            inFlight.remove(step.stepId(), entry);
            if (failure != null) {
                mine.completeExceptionally(failure);
            } else {
                mine.complete(outcome);
            }
        });
    }

    /** Step ids this instance is working on right now (the abandoned-claim sweeper leaves them alone). */
    public Set<String> inFlight() {
        return inFlight.keySet();
    }

    /** Waits for a step running here, if it is and {@code reader} may see it; empty otherwise. */
    public Optional<CompletableFuture<StepOutcome>> running(String stepId, StepReader reader) {
        return Optional.ofNullable(inFlight.get(stepId)).filter(r -> reader.sees(r.caller())).map(Running::outcome);
    }

    private Uni<StepOutcome> route(PlanStep step) {
        if (step.caller() == null || step.caller().isBlank()) {
            // Access and usage policies are decided per caller: a step that names none is refused, recorded
            // and answered like any other (REST steps always carry the authenticated principal).
            return flows.inOneTransaction(step, inputs -> Uni.createFrom().item(Completion.of(PluginRunner.result(step,
                    StepStatus.DENIED, null, null, null, "no caller identity: a step must name the planner it runs for"))));
        }
        Optional<Plugin> plugin = registry.byVerb(step.actionVerb());
        if (plugin.isPresent()) {
            return run(step, plugin.get(), inputs -> runner.run(step, plugin.get(), inputs, null));
        }
        if (step.toolId() != null) {
            // the planner chose a tool for a verb nothing registers: that choice outranks a learned alias
            return flows.claimFirst(step, inputs -> chosen.resolve(step, inputs)
                    .chain(decision -> resolutions.carryOut(step, decision)));
        }
        Optional<Alias> alias = aliases.find(step.actionVerb());
        Optional<Plugin> target = alias.flatMap(a -> registry.byToolId(a.toolId()));
        if (target.isPresent()) {
            return run(step, target.get(), inputs -> viaAlias(step, target.get(), alias.get(), inputs));
        }
        return flows.claimFirst(step, inputs -> novel.resolve(step, inputs)
                .chain(decision -> resolutions.carryOut(step, decision)));
    }

    /** Picks the bookkeeping for a step that runs {@code plugin} (docs/capabilities-manager.md, "At most once"). */
    private Uni<StepOutcome> run(PlanStep step, Plugin plugin, Function<ObjectNode, Uni<StepResult>> work) {
        if (!executors.forPlugin(plugin).sideEffectFree()) {
            return flows.claimFirst(step, inputs -> work.apply(inputs).map(Completion::of));
        }
        return InputResolver.hasReferences(step)
                ? flows.inOneTransaction(step, inputs -> work.apply(inputs).map(Completion::of))
                : flows.runThenRecord(step, work);
    }

    private Uni<StepResult> viaAlias(PlanStep step, Plugin plugin, Alias alias, ObjectNode inputs) {
        InputMapping mapping = mapper.map(inputs, plugin.manifest().inputSchema());
        if (!mapping.complete()) {
            return Uni.createFrom().item(StepFlows.failed(step, "verb '" + step.actionVerb()
                    + "' is a learned alias of " + plugin.verb() + ", which needs inputs this step lacks: "
                    + String.join(", ", mapping.unmappedRequired()) + " (DELETE /aliases/" + alias.verb()
                    + " to search again)"));
        }
        Substitution substitution = new Substitution(step.actionVerb(), alias.confidence(), true, mapping.assignments());
        return runner.run(step, plugin, mapping.apply(inputs), substitution);
    }
}
