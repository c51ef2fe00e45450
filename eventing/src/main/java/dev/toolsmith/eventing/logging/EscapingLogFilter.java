package dev.toolsmith.eventing.logging;

import io.quarkus.logging.LoggingFilter;
import java.util.Map;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/**
 * Escapes control characters in everything a log line prints that a caller can influence: the formatted
 * message (parameters included), the MDC values (step ids, plan ids) and the exceptions' messages. A step id
 * holding a newline and a fake log prefix used to print as a forged line; NUL and ESC were written raw.
 * Registered for the console of every service by eventing's configuration defaults
 * ({@code quarkus.log.console.filter=toolsmith-escape-controls}); it never drops a record.
 */
@LoggingFilter(name = EscapingLogFilter.NAME)
public final class EscapingLogFilter implements Filter {

    public static final String NAME = "toolsmith-escape-controls";

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            escapeMessage(ext);
            escapeMdc(ext);
        } else if (ControlEscapes.needsEscaping(record.getMessage()) && record.getParameters() == null) {
            record.setMessage(ControlEscapes.escape(record.getMessage()));
        }
        record.setThrown(EscapedThrowable.escapedIfNeeded(record.getThrown()));
        return true;
    }

    private static void escapeMessage(ExtLogRecord record) {
        String formatted = record.getFormattedMessage();
        if (ControlEscapes.needsEscaping(formatted)) {
            // Formatted once here, so the formatter must not format (or reinterpret) it again.
            record.setMessage(ControlEscapes.escape(formatted), ExtLogRecord.FormatStyle.NO_FORMAT);
            record.setParameters(null);
        }
    }

    private static void escapeMdc(ExtLogRecord record) {
        Map<String, String> mdc = record.getMdcCopy();
        if (mdc.values().stream().noneMatch(ControlEscapes::needsEscaping)) {
            return;
        }
        // The record's own copy: the thread's MDC stays as the code that set it expects.
        record.copyMdc();
        mdc.forEach((key, value) -> {
            if (ControlEscapes.needsEscaping(value)) {
                record.putMdc(key, ControlEscapes.escape(value));
            }
        });
    }
}
