package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.config.SearchConfig;
import dev.toolsmith.capabilities.config.SubstitutionConfig;
import dev.toolsmith.capabilities.registry.Alias;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.Substitution;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What to do with a verb nobody registered (flows 2 and 3): search, then substitute a confident and
 * safe match, propose a risky one, decompose with an LLM, or give up with the candidates and a
 * capability gap. Returns the decision ({@link Resolution}); the step package runs a substitute and
 * records the result.
 */
@ApplicationScoped
public class NovelVerbResolver {

    private final ToolSearchClient search;
    private final SearchConfig searchConfig;
    private final SubstitutionConfig substitution;
    private final PluginRegistry registry;
    private final InputMapper mapper;
    private final PlanDecomposer decomposer;
    private final CapabilityGaps gaps;
    private final ToolChoices choices;

    public NovelVerbResolver(ToolSearchClient search, SearchConfig searchConfig, SubstitutionConfig substitution,
            PluginRegistry registry, InputMapper mapper, PlanDecomposer decomposer, CapabilityGaps gaps, ToolChoices choices) {
        this.search = search;
        this.searchConfig = searchConfig;
        this.substitution = substitution;
        this.registry = registry;
        this.mapper = mapper;
        this.decomposer = decomposer;
        this.gaps = gaps;
        this.choices = choices;
    }

    public Uni<Resolution> resolve(PlanStep step, ObjectNode inputs) {
        Context context = Vertx.currentContext();
        Uni<Optional<SearchReply>> reply = search.search(request(step));
        if (context != null) {
            // The reply completes on a Kafka thread: decide on the step's own context (its MDC, its session).
            reply = reply.emitOn(command -> context.runOnContext(ignored -> command.run()));
        }
        return reply.chain(answer -> answer
                .map(r -> decide(step, inputs, r))
                .orElseGet(() -> unresolved(step, List.of(), "the librarian did not answer within "
                        + searchConfig.timeout().toMillis() + " ms")));
    }

    static SearchRequest request(PlanStep step, int limit) {
        String verb = VerbNormalizer.normalize(step.actionVerb());
        String query = step.description() == null || step.description().isBlank() ? verb
                : verb + " " + step.description().trim();
        if (query.length() > 4000) {
            query = query.substring(0, 4000);
        }
        return new SearchRequest(step.stepId(), query, step.actionVerb(),
                List.copyOf(new TreeSet<>(step.inputs().keySet())), null, limit, step.caller());
    }

    private SearchRequest request(PlanStep step) {
        return request(step, searchConfig.limit());
    }

    private Uni<Resolution> decide(PlanStep step, ObjectNode inputs, SearchReply reply) {
        if (reply.error() != null) {
            return unresolved(step, List.of(), "the librarian could not search: " + reply.error());
        }
        List<SearchHit> hits = reply.hits().stream()
                .sorted(Comparator.comparingDouble(SearchHit::confidence).reversed()).toList();
        double threshold = substitution.threshold().orElse(reply.substitutionThreshold());
        if (hits.isEmpty()) {
            return accomplish(step, inputs, hits, "no tool matches '" + step.actionVerb() + "'");
        }
        SearchHit top = hits.get(0);
        String notConfident = String.format(Locale.ROOT, "no confident match for '%s': the best, %s, has confidence %.2f < threshold %.2f",
                step.actionVerb(), top.verb(), top.confidence(), threshold);
        if (top.confidence() < Math.min(threshold, substitution.contractConfirmedThreshold())) {
            return accomplish(step, inputs, hits, notConfident);
        }
        Optional<Plugin> candidate = registry.byToolId(top.toolId()).or(() -> registry.byVerb(top.verb()));
        if (candidate.isEmpty() || !candidate.get().serves()) {
            return accomplish(step, inputs, hits, "the best match " + top.toolId() + " is not registered or not enabled here");
        }
        Plugin plugin = candidate.get();
        InputMapping mapping = mapper.map(inputs, plugin.manifest().inputSchema());
        boolean confirmedByInputs = top.confidence() < threshold;
        if (confirmedByInputs && !mapping.matchesExactly(inputs)) {
            return accomplish(step, inputs, hits, notConfident + ", and the step's inputs are not exactly its parameters "
                    + "(which would confirm it from confidence " + substitution.contractConfirmedThreshold() + ")");
        }
        Substitution proposed = new Substitution(step.actionVerb(), top.confidence(), false, mapping.assignments());
        if (!plugin.risk().autoSubstitutable()) {
            String unmapped = mapping.complete() ? "" : "; required inputs still to provide: "
                    + String.join(", ", mapping.unmappedRequired());
            return Uni.createFrom().item(Resolution.Answered.of(new StepResult(step.stepId(), step.planId(), StepStatus.PROPOSED,
                    null, null, proposed, null, List.of(top), plugin.toolId() + " (" + plugin.verb() + ") is "
                            + plugin.risk() + " and is never substituted automatically: resubmit the step with verb "
                            + plugin.verb() + " or toolId " + plugin.toolId() + " to confirm" + unmapped, Instant.now(),
                    choices.of(List.of(top), step.caller()))));
        }
        if (!mapping.complete()) {
            return accomplish(step, inputs, hits, "the best match " + plugin.verb() + " needs inputs this step lacks: "
                    + String.join(", ", mapping.unmappedRequired()));
        }
        Alias alias = new Alias(VerbNormalizer.normalize(step.actionVerb()), plugin.toolId(), plugin.verb(),
                top.confidence(), step.stepId(), Instant.now());
        String why = String.format(Locale.ROOT, "confidence %.2f%s", top.confidence(),
                confirmedByInputs ? ", confirmed by the step's inputs matching its parameters" : "");
        return Uni.createFrom().item(new Resolution.Substitute(plugin, mapping.apply(inputs), proposed, alias, why));
    }

    /** ACCOMPLISH: decompose when an LLM is configured, else (or when it fails) UNRESOLVED. */
    private Uni<Resolution> accomplish(PlanStep step, ObjectNode inputs, List<SearchHit> hits, String why) {
        if (!decomposer.available()) {
            return unresolved(step, hits, why + "; no LLM is configured to decompose the step");
        }
        return decomposer.decompose(step, inputs).chain(decomposition -> {
            if (decomposition.succeeded()) {
                return Uni.createFrom().item(Resolution.Answered.of(new StepResult(step.stepId(), step.planId(),
                        StepStatus.DECOMPOSED, null, null, null, decomposition.plan(), null, null, Instant.now())));
            }
            return unresolved(step, hits, why + "; " + decomposition.failure());
        });
    }

    private Uni<Resolution> unresolved(PlanStep step, List<SearchHit> hits, String why) {
        List<SearchHit> candidates = hits.stream().limit(searchConfig.limit()).toList();
        StepResult result = new StepResult(step.stepId(), step.planId(), StepStatus.UNRESOLVED, null, null, null, null,
                candidates, why, Instant.now(), choices.of(candidates, step.caller()));
        return Uni.createFrom().item(new Resolution.Answered(result, () -> gaps.record(step, candidates)));
    }
}
