package dev.toolsmith.librarian.airlock.source;

import java.util.Locale;
import java.util.Set;

/**
 * The kinds of tool source and which of them this installation accepts. A directory (a public API list
 * such as APIs.guru) names thousands of third-party APIs, so it is off unless an operator enables it
 * ({@code toolsmith.airlock.directory.enabled}); the refusal says which setting to change.
 */
final class SourceTypes {

    static final Set<String> ALL = Set.of("openapi", "git", "marketplace", "directory");

    private final boolean directoryEnabled;

    SourceTypes(boolean directoryEnabled) {
        this.directoryEnabled = directoryEnabled;
    }

    /**
     * The requested type in lower case.
     *
     * @throws IllegalArgumentException (a 400 at the REST edge) for an unknown type, or a directory while
     *     directories are off
     */
    String accept(String requested) {
        String type = requested.toLowerCase(Locale.ROOT);
        if (!ALL.contains(type)) {
            throw new IllegalArgumentException("type: '" + requested + "' is not one of openapi, git, marketplace,"
                    + " directory");
        }
        if (type.equals("directory") && !directoryEnabled) {
            throw new IllegalArgumentException("type: directory sources are off on this installation"
                    + " (toolsmith.airlock.directory.enabled)");
        }
        return type;
    }
}
