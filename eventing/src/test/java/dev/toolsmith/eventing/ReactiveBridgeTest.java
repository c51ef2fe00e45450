package dev.toolsmith.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The one bridge the services' blocking workers use to run reactive Panache steps (JUnit's thread is such a worker). */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "toolsmith_test_eventing"))
class ReactiveBridgeTest {

    @Test
    void aTransactionCommittedThroughTheBridgeIsReadBackThroughIt() {
        String id = "bridge-" + UUID.randomUUID();
        ReactiveBridge.await(() -> Panache.withTransaction(() -> {
            Widget widget = new Widget();
            widget.id = id;
            widget.status = "BRIDGED";
            return widget.persist();
        }));

        Widget read = ReactiveBridge.await(() -> Panache.withSession(() -> Widget.<Widget>findById(id)));

        assertThat(read).isNotNull();
        assertThat(read.status).isEqualTo("BRIDGED");
    }

    @Test
    void aFailedTransactionCommitsNothingAndItsUncheckedFailureComesBackAsItIs() {
        String id = "bridge-" + UUID.randomUUID();
        IllegalArgumentException refused = new IllegalArgumentException("refused after the write");

        Throwable thrown = catchThrowable(() -> ReactiveBridge.await(() -> Panache.withTransaction(() -> {
            Widget widget = new Widget();
            widget.id = id;
            widget.status = "NEVER";
            return widget.persist().chain(() -> Uni.createFrom().failure(refused));
        })));

        assertThat(thrown).isSameAs(refused);
        assertThat(ReactiveBridge.<Widget>await(() -> Panache.withSession(() -> Widget.findById(id)))).isNull();
    }

    @Test
    void aCheckedFailureIsWrappedWithItsMessageAndCause() {
        IOException disk = new IOException("disk full");

        Throwable thrown = catchThrowable(() -> ReactiveBridge.await(() -> Uni.createFrom().failure(disk)));

        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("disk full").hasCause(disk);
    }

    @Test
    void workThatNeverCompletesFailsWithTheCallersExceptionOnceTheTimeIsUp() {
        Throwable thrown = catchThrowable(() -> ReactiveBridge.await(() -> Uni.createFrom().nothing(),
                Duration.ofMillis(200), () -> new IllegalStateException("out of time while waiting")));

        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("out of time while waiting");
    }

    @Test
    void workThatCompletesInTimeReturnsItsItem() {
        String item = ReactiveBridge.await(() -> Uni.createFrom().item("done"), Duration.ofSeconds(30),
                () -> new IllegalStateException("must not time out"));

        assertThat(item).isEqualTo("done");
    }

    @Test
    void withNoTimeLeftTheWorkDoesNotStart() {
        AtomicBoolean started = new AtomicBoolean();

        Throwable thrown = catchThrowable(() -> ReactiveBridge.await(() -> {
            started.set(true);
            return Uni.createFrom().item("too late");
        }, Duration.ZERO, () -> new IllegalStateException("no time left")));

        assertThat(thrown).hasMessage("no time left");
        assertThat(started).isFalse();
    }
}
