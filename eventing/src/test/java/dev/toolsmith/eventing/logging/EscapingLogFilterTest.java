package dev.toolsmith.eventing.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.MDC;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a service's console prints for hostile values, through the same pattern formatter Quarkus uses. */
class EscapingLogFilterTest {

    private static final String FORGED_STEP_ID = "s1\n12:00:00.000 INFO  [d.t.c.StepService] (main) step FORGED succeeded";
    private final PatternFormatter formatter = new PatternFormatter("%-5p step=%X{stepId} %s%e%n");
    private final EscapingLogFilter filter = new EscapingLogFilter();

    @AfterEach
    void clearMdc() {
        MDC.remove("stepId");
    }

    @Test
    void aParameterCannotStartAForgedLine() {
        String line = format(record("step %s failed: %s", FORGED_STEP_ID, "nul\0 esc\u001B[31m"));
        assertThat(line.lines()).hasSize(1);
        assertThat(line).contains("step s1\\n12:00:00.000 INFO  [d.t.c.StepService] (main) step FORGED succeeded failed")
                .contains("nul\\u0000 esc\\u001B[31m")
                .doesNotContain("\0").doesNotContain("\u001B");
    }

    @Test
    void messageFormatParametersAndPlainMessagesAreEscapedToo() {
        ExtLogRecord braces = new ExtLogRecord(Level.INFO, "refused {0}", ExtLogRecord.FormatStyle.MESSAGE_FORMAT, "x");
        braces.setParameters(new Object[] {"a\r\nb"});
        assertThat(format(braces)).contains("refused a\\r\\nb").hasLineCount(1);
        ExtLogRecord plain = new ExtLogRecord(Level.INFO, "line one\u2028line two", "x");
        assertThat(format(plain)).contains("line one\\u2028line two");
    }

    @Test
    void mdcValuesAreEscapedWithoutChangingTheThreadsMdc() {
        MDC.put("stepId", FORGED_STEP_ID);
        String line = format(record("step done"));
        assertThat(line.lines()).hasSize(1);
        assertThat(line).contains("step=s1\\n12:00:00.000");
        assertThat(MDC.get("stepId")).isEqualTo(FORGED_STEP_ID);
    }

    @Test
    void exceptionMessagesAndTheirCausesAreEscapedAndKeepTheirStackTrace() {
        IllegalStateException thrown = new IllegalStateException("bad step\nFAKE LINE",
                new IllegalArgumentException("cause\0here"));
        ExtLogRecord record = record("step failed");
        record.setThrown(thrown);
        String text = format(record);
        assertThat(text).contains("java.lang.IllegalStateException: bad step\\nFAKE LINE")
                .contains("Caused by: java.lang.IllegalArgumentException: cause\\u0000here")
                .contains("at dev.toolsmith.eventing.logging.EscapingLogFilterTest")
                .doesNotContain("\0");
        assertThat(text.lines().filter(l -> l.startsWith("FAKE LINE"))).isEmpty();
    }

    @Test
    void aCleanRecordIsLeftAsItIs() {
        ExtLogRecord record = record("step %s done", "s1");
        RuntimeException thrown = new RuntimeException("plain");
        record.setThrown(thrown);
        assertThat(filter.isLoggable(record)).isTrue();
        assertThat(record.getThrown()).isSameAs(thrown);
        assertThat(record.getParameters()).containsExactly("s1");
    }

    @Test
    void escapingTwiceChangesNothingMore() {
        String once = ControlEscapes.escape("a\nb\0c\\n");
        assertThat(once).isEqualTo("a\\nb\\u0000c\\n");
        assertThat(ControlEscapes.escape(once)).isEqualTo(once);
        assertThat(ControlEscapes.escape("tab\tkept")).isEqualTo("tab\tkept");
    }

    private static ExtLogRecord record(String format, Object... parameters) {
        ExtLogRecord record = new ExtLogRecord(Level.INFO, format, ExtLogRecord.FormatStyle.PRINTF, "x");
        record.setParameters(parameters);
        return record;
    }

    private String format(ExtLogRecord record) {
        assertThat(filter.isLoggable(record)).isTrue();
        return formatter.format(record);
    }
}
