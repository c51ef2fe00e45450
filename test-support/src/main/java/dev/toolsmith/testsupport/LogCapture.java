package dev.toolsmith.testsupport;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.Logger;

/**
 * Collects what one logger category logs, with the MDC as it was when each line was logged, for tests that
 * check which ids a service's log lines carry. Attach it around the work, close it after: the handler and the
 * level it lowered are taken back.
 *
 * <p>Needs the JBoss LogManager (Quarkus tests and the surefire set-up of this build use it).
 */
public final class LogCapture extends ExtHandler implements AutoCloseable {

    /** One captured line: its formatted message and its MDC. */
    public record Line(Level level, String message, Map<String, String> mdc) {
    }

    private final Logger logger;
    private final Level previousLevel;
    private final List<Line> lines = new CopyOnWriteArrayList<>();

    private LogCapture(Logger logger, Level level) {
        this.logger = logger;
        this.previousLevel = logger.getLevel();
        logger.setLevel(level);
        logger.addHandler(this);
    }

    /** Captures {@code category}'s lines at {@code level} and above (DEBUG lines are off in tests otherwise). */
    public static LogCapture of(Class<?> category, Level level) {
        return new LogCapture(Logger.getLogger(category.getName()), level);
    }

    @Override
    protected void doPublish(ExtLogRecord record) {
        // The MDC is read now, on the thread that logs: later it belongs to other work.
        lines.add(new Line(record.getLevel(), record.getFormattedMessage(), Map.copyOf(record.getMdcCopy())));
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(previousLevel);
    }
}
