package dev.toolsmith.e2e;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** Consumer positioning that the demo and the benchmarks share. */
public final class TopicPositions {

    private TopicPositions() {
    }

    /**
     * Subscribes and pins the consumer's position at the current end of every partition before
     * returning. With {@code auto.offset.reset=latest} alone the position is only looked up lazily, so a
     * record produced right after subscribing (a step's result) could land before it and be skipped.
     */
    public static void subscribeAtEnd(KafkaConsumer<?, ?> consumer, String topic, Duration timeout) {
        consumer.subscribe(List.of(topic));
        long end = System.nanoTime() + timeout.toNanos();
        while (consumer.assignment().isEmpty()) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("no partition of " + topic + " was assigned within " + timeout.toSeconds()
                        + " s: is Kafka up and the topic created?");
            }
            consumer.poll(Duration.ofMillis(100));
        }
        consumer.seekToEnd(consumer.assignment());
        consumer.assignment().forEach(consumer::position);
    }
}
