package dev.toolsmith.eventing.logging;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.MDC;

/**
 * Ids put in the log MDC for one unit of work (a search request, a build) and taken out again when it ends,
 * so every line logged meanwhile names what it is about: text formats print them with {@code %X{key}}, the
 * JSON formatter under {@code "mdc"} (docs/operations.md, "Logs").
 *
 * <p>Worker threads and Vert.x contexts are shared between units of work: an id left behind would be printed
 * on the next, unrelated work's lines. {@link #close()} therefore restores what each key held before (nothing,
 * usually), which also keeps an enclosing scope's ids intact. Use it on the thread that does the work; it is
 * not for hopping across Mutiny pipelines (see the capabilities manager's StepService for that).
 *
 * <p>Only ids belong here, never secrets or payloads: they end up in every line and in the log collector.
 */
public final class LogIds implements AutoCloseable {

    private final Map<String, Object> previous = new LinkedHashMap<>();

    private LogIds() {
    }

    public static LogIds open() {
        return new LogIds();
    }

    /** Sets {@code key} until {@link #close()}; a null or blank value is left out instead of printed as "null". */
    public LogIds put(String key, Object value) {
        if (value == null || value.toString().isBlank()) {
            return this;
        }
        if (!previous.containsKey(key)) {
            previous.put(key, MDC.get(key));
        }
        MDC.put(key, value.toString());
        return this;
    }

    @Override
    public void close() {
        previous.forEach((key, before) -> {
            if (before == null) {
                MDC.remove(key);
            } else {
                MDC.put(key, before);
            }
        });
        previous.clear();
    }
}
