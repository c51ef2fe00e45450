package dev.toolsmith.librarian.airlock;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/** Settings of the airlock (docs/airlock.md lists them with their defaults). */
@ConfigMapping(prefix = "toolsmith.airlock")
public interface AirlockConfig {

    /** Lets sources live on loopback/private networks: tests and local development only. */
    @WithName("allow-private-networks")
    @WithDefault("false")
    boolean allowPrivateNetworks();

    /** Literal non-public addresses allowed anyway (an internal API gateway), without opening the rest. */
    @WithName("exempt-addresses")
    Optional<Set<String>> exemptAddresses();

    /** Largest document (spec, manifest, index) fetched, in bytes. */
    @WithName("max-document-bytes")
    @WithDefault("10485760")
    long maxDocumentBytes();

    /** Longest one fetch may take, redirects included. */
    @WithName("fetch-timeout")
    @WithDefault("20s")
    Duration fetchTimeout();

    /** A document with more operations is refused. */
    @WithName("max-operations")
    @WithDefault("2000")
    int maxOperations();

    /** How often the worker looks for sources that are due. */
    @WithName("scan-tick")
    @WithDefault("30s")
    String scanTick();

    /** How long after start the worker's first tick runs. */
    @WithName("scan-delay")
    @WithDefault("5s")
    String scanDelay();

    /** Interval of a source registered without one. */
    @WithName("default-interval")
    @WithDefault("PT6H")
    Duration defaultInterval();

    /** A scan that has been running longer than this is considered dead and may be claimed again. */
    @WithName("scan-lease")
    @WithDefault("PT15M")
    Duration scanLease();

    /**
     * The longest one scan may take: past it the scan stops at its next step and the source is FAILED with
     * the reason; a scan still running past it makes the scan worker's liveness check DOWN. Keep it below
     * the scan lease, so no replica claims a source whose scan is still running.
     */
    @WithName("scan-timeout")
    @WithDefault("PT10M")
    Duration scanTimeout();

    /** Manifest files read from one git source at most. */
    @WithName("git.max-files")
    @WithDefault("500")
    int gitMaxFiles();

    /** Entries of one marketplace index read at most. */
    @WithName("marketplace.max-entries")
    @WithDefault("200")
    int marketplaceMaxEntries();

    /** The public API directory (APIs.guru list.json format) may be registered and searched for gaps. */
    @WithName("directory.enabled")
    @WithDefault("false")
    boolean directoryEnabled();

    /** Directory APIs ingested into the queue for one gap at most. */
    @WithName("directory.apis-per-gap")
    @WithDefault("2")
    int directoryApisPerGap();

    /** Candidates tagged with one gap at most. */
    @WithName("gap.matches")
    @WithDefault("3")
    int gapMatches();
}
