package dev.toolsmith.eventing.tracing;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where spans go, under {@code toolsmith.tracing.*}. Trace ids are made and propagated whatever this says. */
@ConfigMapping(prefix = "toolsmith.tracing")
public interface TracingConfig {

    /** {@code none}: spans are not exported; {@code logging}: one log line per span; {@code otlp}: an OTLP collector. */
    @WithDefault("none")
    Exporter exporter();

    Otlp otlp();

    interface Otlp {
        /** The collector's OTLP/gRPC endpoint. */
        @WithDefault("http://localhost:4317")
        String endpoint();
    }

    enum Exporter {
        NONE, LOGGING, OTLP
    }
}
