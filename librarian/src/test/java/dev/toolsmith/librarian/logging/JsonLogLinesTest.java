package dev.toolsmith.librarian.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.eventing.logging.LogIds;
import io.quarkus.logging.json.runtime.JsonFormatter;
import java.util.logging.Level;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/**
 * In containers the services log JSON (QUARKUS_LOG_CONSOLE_JSON_ENABLED=true): the ids a unit of work puts in
 * the MDC must come out with every line, or the step, plan and trace ids would be lost exactly where logs are
 * collected. Guards the JSON extension's default (MDC included) across Quarkus upgrades.
 */
class JsonLogLinesTest {

    @Test
    void aJsonLineCarriesTheMdcIds() throws Exception {
        String line;
        try (LogIds ids = LogIds.open().put("stepId", "step-1").put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736")) {
            ExtLogRecord record = new ExtLogRecord(Level.INFO, "search for GET_FORECAST: 2 hits",
                    JsonLogLinesTest.class.getName());
            record.setLoggerName("dev.toolsmith.librarian.search.SearchRequestListener");
            line = new JsonFormatter().format(record);
        }
        JsonNode json = new ObjectMapper().readTree(line);
        assertThat(json.path("message").asText()).isEqualTo("search for GET_FORECAST: 2 hits");
        assertThat(json.path("mdc").path("stepId").asText()).isEqualTo("step-1");
        assertThat(json.path("mdc").path("traceId").asText()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }
}
