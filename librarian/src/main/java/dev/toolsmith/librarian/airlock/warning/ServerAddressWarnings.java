package dev.toolsmith.librarian.airlock.warning;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.sandbox.egress.EgressRule;
import dev.toolsmith.sandbox.egress.HostLiteral;
import dev.toolsmith.sandbox.egress.NetworkKind;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Warns the reviewer about a candidate whose server URL (or health probe's) is not on the public
 * internet: a link-local or cloud metadata destination (which the executor refuses in every mode, in
 * every spelling: {@link EgressRule}), or a loopback, private or internal one (which works only where
 * private networks are allowed, and there reaches into the network Toolsmith runs in). Judged from the
 * URL alone, without DNS: the review screen must not wait on lookups, and what a name resolves to is
 * checked again on every call.
 */
public final class ServerAddressWarnings {

    public static final String METADATA_SERVER = "METADATA_SERVER";
    public static final String PRIVATE_SERVER = "PRIVATE_SERVER";

    /** Name suffixes that only resolve inside a private network. */
    private static final List<String> INTERNAL_SUFFIXES = List.of(".localhost", ".local", ".internal", ".lan",
            ".home.arpa", ".intranet", ".corp", ".private");

    private ServerAddressWarnings() {
    }

    /** The warnings for a stored manifest (its binding's and health probe's server URLs), in that order. */
    public static List<ServerWarning> of(JsonNode manifest) {
        if (manifest == null) {
            return List.of();
        }
        Set<String> urls = new LinkedHashSet<>();
        addUrl(urls, manifest.path("binding").path("serverUrl"));
        addUrl(urls, manifest.path("healthProbe").path("binding").path("serverUrl"));
        List<ServerWarning> warnings = new ArrayList<>();
        for (String url : urls) {
            forUrl(url).ifPresent(warnings::add);
        }
        return warnings;
    }

    /** The warning for one server URL, or empty when it names a public host. */
    static Optional<ServerWarning> forUrl(String url) {
        String host;
        try {
            host = HostLiteral.of(new URI(url.trim()));
        } catch (URISyntaxException e) {
            return Optional.empty(); // the binding's own validation reports a broken URL
        }
        Optional<String> forbidden = EgressRule.refusal(host);
        if (forbidden.isPresent()) {
            return Optional.of(new ServerWarning(METADATA_SERVER, url, "The server URL " + url + " is a link-local/"
                    + "cloud metadata address, which hands out the credentials of the machine it is asked from. "
                    + "Toolsmith refuses to call it in every mode, so this tool cannot run: reject it."));
        }
        Optional<String> kind = privateKind(host);
        return kind.map(k -> new ServerWarning(PRIVATE_SERVER, url, "The server URL " + url + " is on " + k
                + ": calls would go into the network Toolsmith runs in, not to the internet. They are refused unless "
                + "private networks are allowed (local use); approve only if you expect this API there."));
    }

    private static Optional<String> privateKind(String host) {
        String name = HostLiteral.normalise(host);
        Optional<InetAddress> literal = HostLiteral.parse(name);
        if (literal.isPresent()) {
            return NetworkKind.nonPublic(literal.get()).map(kind -> "a " + kind + " address ("
                    + literal.get().getHostAddress() + ")");
        }
        if (name.equals("localhost") || name.endsWith(".localhost")) {
            return Optional.of("a loopback address (" + name + ")");
        }
        if (!name.isEmpty() && !name.contains(".")) {
            return Optional.of("an internal host name (" + name + ", a single label)");
        }
        return INTERNAL_SUFFIXES.stream().filter(name::endsWith).findFirst()
                .map(suffix -> "an internal host name (" + name + ")");
    }

    private static void addUrl(Set<String> urls, JsonNode url) {
        if (url.isTextual() && !url.asText().isBlank()) {
            urls.add(url.asText());
        }
    }
}
