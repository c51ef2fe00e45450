package dev.toolsmith.eventing.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ids are there for the unit of work only: a shared worker thread must not carry them into the next one. */
class LogIdsTest {

    @AfterEach
    void clean() {
        MDC.clear();
    }

    @Test
    void idsAreSetForTheScopeAndRemovedAfterIt() {
        try (LogIds ids = LogIds.open().put("stepId", "s-1").put("traceId", "abc")) {
            assertThat(MDC.get("stepId")).isEqualTo("s-1");
            assertThat(MDC.get("traceId")).isEqualTo("abc");
        }
        assertThat(MDC.get("stepId")).isNull();
        assertThat(MDC.get("traceId")).isNull();
    }

    @Test
    void missingIdsAreLeftOutAndAnEnclosingScopeIsRestored() {
        MDC.put("planId", "outer");
        try (LogIds ids = LogIds.open().put("planId", "inner").put("stepId", null).put("toolId", " ")) {
            ids.put("planId", "inner again"); // a second put keeps the value from before the scope
            assertThat(MDC.get("planId")).isEqualTo("inner again");
            assertThat(MDC.getMap()).doesNotContainKeys("stepId", "toolId");
        }
        assertThat(MDC.get("planId")).isEqualTo("outer");
    }
}
