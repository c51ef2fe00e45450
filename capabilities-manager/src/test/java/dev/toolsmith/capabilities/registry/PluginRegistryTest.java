package dev.toolsmith.capabilities.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.capabilities.plugins.EvaluateExpressionPlugin;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import io.smallrye.mutiny.Uni;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The registry's view under overlapping refreshes, whose reads of the table (or of one plugin's row) may finish in
 * any order; and a one-plugin change costs that plugin's row, not the table.
 */
class PluginRegistryTest {

    private static final ToolManifest MANIFEST = new EvaluateExpressionPlugin().manifest();

    /** A store whose reads the test completes by hand, in the order it chooses. */
    private static final class HeldReads extends PluginStore {
        final Deque<CompletableFuture<List<Plugin>>> reads = new ArrayDeque<>();
        final Deque<CompletableFuture<Optional<Plugin>>> rowReads = new ArrayDeque<>();
        final List<String> rowsRead = new ArrayList<>();

        HeldReads() {
            super(new ContractCodec());
        }

        @Override
        public Uni<List<Plugin>> loadAll() {
            CompletableFuture<List<Plugin>> read = new CompletableFuture<>();
            reads.add(read);
            return Uni.createFrom().completionStage(read);
        }

        @Override
        public Uni<Optional<Plugin>> load(String toolId) {
            CompletableFuture<Optional<Plugin>> read = new CompletableFuture<>();
            rowReads.add(read);
            rowsRead.add(toolId);
            return Uni.createFrom().completionStage(read);
        }
    }

    private static Plugin plugin(String toolId, String verb, PluginStatus status) {
        return new Plugin(toolId, verb, PluginType.WRAPPED_HTTP, status, null, 1, "h", MANIFEST, null);
    }

    private static Plugin plugin(PluginStatus status) {
        return new Plugin(MANIFEST.id(), MANIFEST.verb(), PluginType.INTERNAL, status, null, 1, "h", MANIFEST, null);
    }

    @Test
    void anEarlierReadFinishingLastDoesNotBringBackTheOlderView() {
        HeldReads store = new HeldReads();
        PluginRegistry registry = new PluginRegistry(store);
        CompletableFuture<Void> earlier = registry.refresh().subscribeAsCompletionStage().toCompletableFuture();
        CompletableFuture<Void> later = registry.refresh().subscribeAsCompletionStage().toCompletableFuture();
        CompletableFuture<List<Plugin>> earlierRead = store.reads.removeFirst();
        CompletableFuture<List<Plugin>> laterRead = store.reads.removeFirst();

        // the admin's enable committed between the two reads: the later one sees it
        laterRead.complete(List.of(plugin(PluginStatus.ENABLED)));
        earlierRead.complete(List.of(plugin(PluginStatus.DISABLED)));

        assertThat(later).isCompleted();
        assertThat(earlier).isCompleted();
        assertThat(registry.byToolId(MANIFEST.id())).get().extracting(Plugin::status).isEqualTo(PluginStatus.ENABLED);
    }

    @Test
    void readsFinishingInOrderEachReplaceTheView() {
        HeldReads store = new HeldReads();
        PluginRegistry registry = new PluginRegistry(store);
        registry.refresh().subscribeAsCompletionStage();
        store.reads.removeFirst().complete(List.of(plugin(PluginStatus.DISABLED)));
        assertThat(registry.byVerb(MANIFEST.verb())).get().extracting(Plugin::status).isEqualTo(PluginStatus.DISABLED);
        registry.refresh().subscribeAsCompletionStage();
        store.reads.removeFirst().complete(List.of(plugin(PluginStatus.ENABLED)));
        assertThat(registry.byVerb(MANIFEST.verb())).get().extracting(Plugin::status).isEqualTo(PluginStatus.ENABLED);
    }

    @Test
    void aOnePluginRefreshReadsThatRowOnlyAndKeepsTheRest() {
        HeldReads store = new HeldReads();
        PluginRegistry registry = new PluginRegistry(store);
        registry.refresh().subscribeAsCompletionStage();
        store.reads.removeFirst().complete(List.of(plugin("a", "DO_A", PluginStatus.ENABLED)));

        registry.refresh("b").subscribeAsCompletionStage();
        store.rowReads.removeFirst().complete(Optional.of(plugin("b", "DO_B", PluginStatus.ENABLED)));

        assertThat(store.reads).as("no read of the whole table").isEmpty();
        assertThat(store.rowsRead).containsExactly("b");
        assertThat(registry.all()).extracting(Plugin::toolId).containsExactlyInAnyOrder("a", "b");
        assertThat(registry.byVerb("doB")).get().extracting(Plugin::toolId).isEqualTo("b");
    }

    @Test
    void aOnePluginRefreshFindingNoRowForgetsThePluginAndItsVerb() {
        HeldReads store = new HeldReads();
        PluginRegistry registry = new PluginRegistry(store);
        registry.refresh().subscribeAsCompletionStage();
        store.reads.removeFirst().complete(List.of(plugin("a", "DO_A", PluginStatus.ENABLED),
                plugin("b", "DO_B", PluginStatus.ENABLED)));

        registry.refresh("a").subscribeAsCompletionStage();
        store.rowReads.removeFirst().complete(Optional.empty()); // retired
        // b's row now has a new verb: the old one is free
        registry.refresh("b").subscribeAsCompletionStage();
        store.rowReads.removeFirst().complete(Optional.of(plugin("b", "DO_B2", PluginStatus.ENABLED)));

        assertThat(registry.byToolId("a")).isEmpty();
        assertThat(registry.byVerb("DO_A")).isEmpty();
        assertThat(registry.byVerb("DO_B")).isEmpty();
        assertThat(registry.byVerb("DO_B2")).get().extracting(Plugin::toolId).isEqualTo("b");
    }

    @Test
    void aFullReadStartedBeforeAOnePluginReadKeepsThatPluginsNewerRow() {
        HeldReads store = new HeldReads();
        PluginRegistry registry = new PluginRegistry(store);
        registry.refresh().subscribeAsCompletionStage(); // the periodic refresher starts reading
        registry.refresh("a").subscribeAsCompletionStage(); // an enable committed after: its event reads a's row

        store.rowReads.removeFirst().complete(Optional.of(plugin("a", "DO_A", PluginStatus.ENABLED)));
        store.reads.removeFirst().complete(List.of(plugin("a", "DO_A", PluginStatus.DISABLED),
                plugin("c", "DO_C", PluginStatus.ENABLED)));

        assertThat(registry.byToolId("a")).get().extracting(Plugin::status).isEqualTo(PluginStatus.ENABLED);
        assertThat(registry.byToolId("c")).as("the rest of the full read applies").isPresent();
    }

    @Test
    void aOnePluginReadStartedBeforeAFullReadDoesNotReplaceIt() {
        HeldReads store = new HeldReads();
        PluginRegistry registry = new PluginRegistry(store);
        registry.refresh("a").subscribeAsCompletionStage();
        registry.refresh().subscribeAsCompletionStage();

        store.reads.removeFirst().complete(List.of(plugin("a", "DO_A", PluginStatus.ENABLED)));
        store.rowReads.removeFirst().complete(Optional.of(plugin("a", "DO_A", PluginStatus.DISABLED)));

        assertThat(registry.byToolId("a")).get().extracting(Plugin::status).isEqualTo(PluginStatus.ENABLED);
    }

    @Test
    void anEarlierReadOfOnePluginFinishingLastDoesNotBringBackItsOlderRow() {
        HeldReads store = new HeldReads();
        PluginRegistry registry = new PluginRegistry(store);
        registry.refresh("a").subscribeAsCompletionStage();
        registry.refresh("a").subscribeAsCompletionStage();
        CompletableFuture<Optional<Plugin>> earlier = store.rowReads.removeFirst();

        store.rowReads.removeFirst().complete(Optional.of(plugin("a", "DO_A", PluginStatus.ENABLED)));
        earlier.complete(Optional.of(plugin("a", "DO_A", PluginStatus.DISABLED)));

        assertThat(registry.byVerb("DO_A")).get().extracting(Plugin::status).isEqualTo(PluginStatus.ENABLED);
    }
}
