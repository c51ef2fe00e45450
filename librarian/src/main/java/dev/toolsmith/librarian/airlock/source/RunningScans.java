package dev.toolsmith.librarian.airlock.source;

import dev.toolsmith.librarian.airlock.discovery.SourceSnapshot;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scans running in this replica, with when each started and on which thread: the scan worker's
 * health check reads it to report a scan that has run past its time (a worker that is stuck).
 */
@ApplicationScoped
public class RunningScans {

    /** One running scan. */
    public record Running(UUID sourceId, String sourceName, Instant startedAt, String thread) {

        Duration age(Instant now) {
            return Duration.between(startedAt, now);
        }
    }

    /** Ends a scan's registration when the scan ends, however it ends. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    private final Map<Object, Running> running = new ConcurrentHashMap<>();

    public Registration started(SourceSnapshot source) {
        Object key = new Object();
        running.put(key, new Running(source.id(), source.name(), Instant.now(), Thread.currentThread().getName()));
        return () -> running.remove(key);
    }

    /** The scans running longer than {@code bound}, longest first. */
    public List<Running> longerThan(Duration bound) {
        Instant now = Instant.now();
        return running.values().stream().filter(scan -> scan.age(now).compareTo(bound) > 0)
                .sorted(Comparator.comparing(Running::startedAt)).toList();
    }

    public int count() {
        return running.size();
    }
}
