package dev.toolsmith.librarian.airlock.source;

/**
 * A source as an admin registers or edits it.
 *
 * @param type {@code openapi}, {@code git}, {@code marketplace} or {@code directory}
 * @param url the document, repository, index or directory list
 * @param branch git only (default {@code main})
 * @param path git only: the folder of manifest files (default the repository root)
 * @param intervalSeconds how often to rescan, at least 60 (default {@code toolsmith.airlock.default-interval})
 * @param suspendOnChange suspend an approved tool whose definition changes until the change is reviewed
 */
public record SourceRequest(String name, String type, String url, String branch, String path, Integer intervalSeconds,
        Boolean suspendOnChange) {
}
