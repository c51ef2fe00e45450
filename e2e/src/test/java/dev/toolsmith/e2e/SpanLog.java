package dev.toolsmith.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The spans a service wrote to its log with the {@code logging} trace exporter (the platform under test
 * runs with {@code TOOLSMITH_TRACING_EXPORTER=logging}): one line per span, {@code 'name' : traceId spanId KIND …}.
 */
final class SpanLog {

    private static final Pattern SPAN = Pattern.compile("'([^']+)' : ([0-9a-f]{32}) [0-9a-f]{16} ([A-Z]+)");

    private final List<String> lines;

    private SpanLog(List<String> lines) {
        this.lines = lines;
    }

    /** The spans logged from byte {@code from} of the file on (see {@link #end}), so a test sees only its own. */
    static SpanLog of(Path logFile, long from) throws IOException {
        byte[] all = Files.readAllBytes(logFile);
        int start = (int) Math.min(from, all.length);
        return new SpanLog(new String(all, start, all.length - start, StandardCharsets.UTF_8).lines().toList());
    }

    /** Where the log ends now (0 for no file yet): what a test's own spans are written after. */
    static long end(Path logFile) throws IOException {
        return Files.exists(logFile) ? Files.size(logFile) : 0;
    }

    /** Trace ids of the spans with this name, in the order they were logged. */
    Set<String> traces(String spanName) {
        Set<String> traces = new LinkedHashSet<>();
        for (String line : lines) {
            Matcher m = SPAN.matcher(line);
            if (m.find() && m.group(1).equals(spanName)) {
                traces.add(m.group(2));
            }
        }
        return traces;
    }

    boolean has(String spanName, String traceId) {
        return traces(spanName).contains(traceId);
    }
}
