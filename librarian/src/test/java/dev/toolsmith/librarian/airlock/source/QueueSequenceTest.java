package dev.toolsmith.librarian.airlock.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The queue's writes run one after another through {@link QueueUpdater#sequence}. Steps that complete at
 * once (a persist before the flush) used to nest a call per step: 1,500 of them overflowed the stack,
 * which on the event loop left a scan's transaction open and its worker waiting for good.
 */
class QueueSequenceTest {

    @Test
    void twentyThousandStepsThatCompleteAtOnceRunInOrderOnASmallStack() throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<Integer> order = new ArrayList<>();
        List<Uni<?>> work = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            int step = i;
            // half of them end without an item, as a Uni<Void> does
            work.add(step % 2 == 0 ? Uni.createFrom().item(() -> order.add(next.getAndIncrement()))
                    : Uni.createFrom().voidItem().invoke(() -> order.add(next.getAndIncrement())));
        }
        Throwable[] failure = new Throwable[1];
        // an event loop's stack is small: run on a thread with 256 KB
        Thread runner = new Thread(null, () -> {
            try {
                QueueUpdater.sequence(work).await().atMost(Duration.ofSeconds(30));
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, "small-stack", 256 * 1024);
        runner.start();
        runner.join(60_000);

        assertThat(failure[0]).isNull();
        assertThat(order).hasSize(20_000);
        for (int i = 0; i < order.size(); i++) {
            assertThat(order.get(i)).isEqualTo(i);
        }
    }
}
