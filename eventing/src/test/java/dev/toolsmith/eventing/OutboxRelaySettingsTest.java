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

    @Test
    void aNegativeRetentionIsRefusedByNameRatherThanDeletingRowsAsSoonAsTheyArePublished() {
        assertThatThrownBy(() -> new OutboxRetention(Duration.ofHours(-1), Duration.ofDays(7)))
                .hasMessage("toolsmith.outbox.retention must not be negative, got PT-1H");
        assertThatThrownBy(() -> new OutboxRetention(Duration.ofHours(1), Duration.ofSeconds(-5)))
                .hasMessage("toolsmith.outbox.dedupe-retention must not be negative, got PT-5S");
        assertThatCode(() -> new OutboxRetention(Duration.ZERO, Duration.ZERO)).doesNotThrowAnyException();
    }
}
