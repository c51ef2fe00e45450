package dev.toolsmith.eventing.logging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.LogContext;
import org.junit.jupiter.api.Test;

/** Eventing's configuration defaults put the escaping filter on the console of every service. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "toolsmith_test_eventing"))
class EscapingLogFilterRegisteredTest {

    @Test
    void theConsoleHandlerEscapesControlCharacters() {
        List<Handler> handlers = new ArrayList<>();
        collect(LogContext.getLogContext().getLogger("").getHandlers(), handlers);
        List<Handler> consoles = handlers.stream()
                .filter(h -> h.getClass().getSimpleName().contains("Console")).toList();
        assertThat(consoles).isNotEmpty();
        for (Handler console : consoles) {
            // Quarkus combines the configured filter with its own, so ask the combination what it does.
            ExtLogRecord record = new ExtLogRecord(Level.INFO, "step %s", ExtLogRecord.FormatStyle.PRINTF, "x");
            record.setParameters(new Object[] {"s1\nFORGED"});
            assertThat(console.getFilter()).isNotNull();
            console.getFilter().isLoggable(record);
            assertThat(record.getFormattedMessage()).isEqualTo("step s1\\nFORGED");
        }
    }

    private static void collect(Handler[] handlers, List<Handler> into) {
        for (Handler handler : handlers) {
            into.add(handler);
            if (handler instanceof ExtHandler ext) {
                collect(ext.getHandlers(), into);
            }
        }
    }
}
