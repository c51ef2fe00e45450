package dev.toolsmith.capabilities.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.capabilities.plugins.EvaluateExpressionPlugin;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import io.smallrye.mutiny.Uni;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The registry's view under overlapping refreshes, whose reads of the table may finish in any order. */
class PluginRegistryTest {

    private static final ToolManifest MANIFEST = new EvaluateExpressionPlugin().manifest();

    /** A store whose reads the test completes by hand, in the order it chooses. */
    private static final class HeldReads extends PluginStore {
        final Deque<CompletableFuture<List<Plugin>>> reads = new ArrayDeque<>();

        HeldReads() {
            super(new ContractCodec());
        }

        @Override
        public Uni<List<Plugin>> loadAll() {
            CompletableFuture<List<Plugin>> read = new CompletableFuture<>();
            reads.add(read);
            return Uni.createFrom().completionStage(read);
        }
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
}
