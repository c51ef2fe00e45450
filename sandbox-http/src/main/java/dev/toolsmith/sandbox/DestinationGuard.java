package dev.toolsmith.sandbox;

import dev.toolsmith.sandbox.egress.EgressRule;
import dev.toolsmith.sandbox.egress.HostLiteral;
import dev.toolsmith.sandbox.egress.NetworkKind;
import dev.toolsmith.sandbox.egress.PinnedDestinations;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a URL may be called: its host must be one the approval named; it must never be a
 * link-local or cloud metadata destination, in any spelling and whatever it resolves to
 * ({@link EgressRule}, in every mode); and, unless private networks are allowed, every address it
 * resolves to must be public (no loopback, private, carrier-grade NAT, unique-local, multicast or
 * unspecified addresses). This is the check before sending, with a reason for the caller; the same
 * address rule runs again when the client connects ({@link #atConnect(boolean)}), on the address
 * actually connected to.
 */
final class DestinationGuard {

    /** Why a destination is refused; {@code connectionProblem} marks a lookup failure rather than a policy refusal. */
    record Refusal(String reason, boolean connectionProblem) {
    }

    private DestinationGuard() {
    }

    /** Null when {@code target} may be called; otherwise why not. */
    static Refusal check(URI target, Set<String> approvedHosts, boolean allowPrivateNetworks) {
        return check(target, approvedHosts, allowPrivateNetworks, InetAddress::getAllByName);
    }

    static Refusal check(URI target, Set<String> approvedHosts, boolean allowPrivateNetworks,
            PinnedDestinations.Resolver resolver) {
        String host = hostOf(target);
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return new Refusal("only http and https URLs may be called, not " + target.getScheme(), false);
        }
        Optional<String> everyMode = EgressRule.refusal(host);
        if (everyMode.isPresent()) {
            return new Refusal(everyMode.get(), false);
        }
        if (!approvedHosts.contains(host)) {
            return new Refusal(host + " is not an approved host of this tool (approved: "
                    + String.join(", ", approvedHosts.stream().sorted().toList()) + ")", false);
        }
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(HostLiteral.normalise(host));
        } catch (UnknownHostException e) {
            return new Refusal("cannot resolve host " + host, true);
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = refusal(host, address, allowPrivateNetworks);
            if (refusal.isPresent()) {
                return new Refusal(refusal.get(), false);
            }
        }
        return null;
    }

    /** The rule for one resolved address: link-local/metadata never, non-public ones only when allowed. */
    static Optional<String> refusal(String host, InetAddress address, boolean allowPrivateNetworks) {
        Optional<String> everyMode = EgressRule.refusal(host, address);
        if (everyMode.isPresent() || allowPrivateNetworks) {
            return everyMode;
        }
        return NetworkKind.nonPublic(address).map(kind -> host + " resolves to " + address.getHostAddress() + ", a "
                + kind + " address; private networks are not allowed");
    }

    /** The check the HTTP client runs on the address it connects to (see {@link PinnedDestinations}). */
    static PinnedDestinations atConnect(boolean allowPrivateNetworks, PinnedDestinations.Resolver resolver) {
        return new PinnedDestinations(resolver, (host, address) -> refusal(host, address, allowPrivateNetworks));
    }

    /** The URL's host, lower case, without IPv6 brackets; also for spellings {@link URI#getHost()} gives up on. */
    static String hostOf(URI target) {
        return stripBrackets(HostLiteral.of(target).toLowerCase(Locale.ROOT));
    }

    static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** The kind of a non-public address, or null for a public one. */
    static String nonPublicKind(InetAddress address) {
        return NetworkKind.nonPublic(address).orElse(null);
    }
}
