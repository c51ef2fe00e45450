package dev.toolsmith.librarian.airlock.warning;

/**
 * A warning the review screen shows about where a candidate tool would send its calls.
 * {@code code}: {@code METADATA_SERVER} (a link-local or cloud metadata destination: refused in every
 * mode, the tool cannot run) or {@code PRIVATE_SERVER} (loopback, private or internal: reachable only
 * where private networks are allowed, and then into the network Toolsmith runs in). {@code url} is the
 * server URL concerned; {@code message} says what it means for the reviewer.
 */
public record ServerWarning(String code, String url, String message) {
}
