package dev.toolsmith.capabilities.execution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.plugins.InternalPlugin;
import dev.toolsmith.capabilities.registry.AliasBook;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.registry.PluginStore;
import dev.toolsmith.capabilities.registry.PluginType;
import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.eventing.Outbox;
import dev.toolsmith.eventing.ReactiveBridge;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * At start-up: verifies each internal plugin against its worked examples (inputs and outputs checked
 * against its schemas, outputs compared with the expected ones), registers it, and — only when it is
 * new or its content hash changed — announces it on {@code internal-plugins} through the outbox, so the
 * librarian indexes it ({@code plugin-built} is the engineer's alone, and every build there needs an approval
 * seal). Several replicas starting together announce a change once.
 */
@ApplicationScoped
public class InternalPluginRegistration {

    private static final Logger LOG = Logger.getLogger(InternalPluginRegistration.class);

    /** Numbers compare by value: 37 and 37.0 are the same output. */
    private static final Comparator<JsonNode> NUMERIC = (a, b) -> a.isNumber() && b.isNumber()
            ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;

    private final InternalPluginExecutor internal;
    private final PluginStore store;
    private final PluginRegistry registry;
    private final AliasBook aliases;
    private final SchemaValidation schemas;
    private final Outbox outbox;
    private final ObjectMapper mapper;

    public InternalPluginRegistration(InternalPluginExecutor internal, PluginStore store, PluginRegistry registry,
            AliasBook aliases, SchemaValidation schemas, Outbox outbox, ContractCodec codec) {
        this.internal = internal;
        this.store = store;
        this.registry = registry;
        this.aliases = aliases;
        this.schemas = schemas;
        this.outbox = outbox;
        this.mapper = codec.mapper();
    }

    void onStart(@Observes @Priority(10) StartupEvent event) {
        ReactiveBridge.await(() -> registerAll()
                .call(registered -> registry.refresh())
                .call(aliases::refresh));
    }

    /** One after the other: the transactions share this context's session, which is not thread-safe. */
    public Uni<List<Plugin>> registerAll() {
        return Multi.createFrom().iterable(internal.plugins())
                .onItem().transformToUniAndConcatenate(this::register)
                .collect().asList()
                .map(changed -> changed.stream().flatMap(Optional::stream).toList());
    }

    private Uni<Optional<Plugin>> register(InternalPlugin code) {
        ToolManifest manifest = code.manifest();
        String hash = ContentHash.of(manifest, mapper);
        Plugin candidate = new Plugin(manifest.id(), manifest.verb(), PluginType.INTERNAL, PluginStatus.ENABLED, null, 1,
                hash, manifest.withVersion(1, hash), null);
        VerificationReport report = verify(code, candidate);
        Plugin plugin = report.passed() ? candidate
                : candidate.withStatus(PluginStatus.DISABLED, "failed its own examples at start-up");
        if (!report.passed()) {
            LOG.errorf("internal plugin %s failed its examples and is registered DISABLED: %s", manifest.id(),
                    report.cases());
        }
        return Panache.withTransaction(() -> store.upsertIfChanged(plugin, 1).call(changed -> changed
                .map(stored -> outbox.append(Topics.INTERNAL_PLUGINS, stored.toolId(), new PluginBuilt(stored.toolId(),
                        stored.version(), true, stored.manifest(), null, report, null, null)).replaceWithVoid())
                .orElseGet(() -> Uni.createFrom().voidItem())))
                .invoke(changed -> changed.ifPresent(stored -> LOG.infof("registered internal plugin %s (%s) v%d",
                        stored.toolId(), stored.verb(), stored.version())));
    }

    VerificationReport verify(InternalPlugin code, Plugin plugin) {
        long start = System.nanoTime();
        List<CaseResult> cases = new ArrayList<>();
        for (InternalPlugin.Example example : code.examples()) {
            cases.add(runExample(code, plugin, example));
        }
        boolean passed = cases.stream().allMatch(CaseResult::passed);
        return new VerificationReport(passed, cases, (System.nanoTime() - start) / 1_000_000);
    }

    private CaseResult runExample(InternalPlugin code, Plugin plugin, InternalPlugin.Example example) {
        Optional<String> badInput = schemas.checkInputs(plugin, example.inputs());
        if (badInput.isPresent()) {
            return new CaseResult(example.name(), "example", false, badInput.get());
        }
        try {
            ObjectNode outputs = code.execute(example.inputs().deepCopy());
            Optional<String> badOutput = schemas.checkOutputs(plugin, outputs);
            if (badOutput.isPresent()) {
                return new CaseResult(example.name(), "example", false, badOutput.get());
            }
            boolean same = outputs.equals(NUMERIC, example.expectedOutputs());
            return new CaseResult(example.name(), "example", same,
                    same ? null : "expected " + example.expectedOutputs() + ", got " + outputs);
        } catch (RuntimeException e) { // PluginFailure or a bug: either way the example failed
            return new CaseResult(example.name(), "example", false, e.getMessage());
        }
    }
}
