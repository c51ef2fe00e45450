package dev.toolsmith.eventing;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OutboxRelaySettingsTest {

    @Test
    void settingsTheRelayCannotWorkWithAreRefusedByName() {
        assertThatThrownBy(() -> OutboxRelay.checkSettings(0, Duration.ofSeconds(1)))
                .hasMessage("toolsmith.outbox.batch-size must be at least 1, got 0");
        assertThatThrownBy(() -> OutboxRelay.checkSettings(500, Duration.ZERO))
                .hasMessageContaining("toolsmith.outbox.poll-interval must be at least 1ms");
        assertThatCode(() -> OutboxRelay.checkSettings(1, Duration.ofMillis(1))).doesNotThrowAnyException();
    }
}
