package dev.toolsmith.sandbox;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a URL may be called: its host must be one the approval named, and, unless private
 * networks are allowed, every address it resolves to must be public (no loopback, private, link-local,
 * carrier-grade NAT, unique-local, multicast or unspecified addresses; the cloud metadata endpoint
 * 169.254.169.254 is link-local). The JVM caches the lookup (networkaddress.cache.ttl, 30 s by default),
 * so the HTTP client connects to the address checked here.
 */
final class DestinationGuard {

    /** Why a destination is refused; {@code connectionProblem} marks a lookup failure rather than a policy refusal. */
    record Refusal(String reason, boolean connectionProblem) {
    }

    private DestinationGuard() {
    }

    /** Null when {@code target} may be called; otherwise why not. */
    static Refusal check(URI target, Set<String> approvedHosts, boolean allowPrivateNetworks) {
        String host = target.getHost() == null ? "" : target.getHost().toLowerCase(Locale.ROOT);
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return new Refusal("only http and https URLs may be called, not " + target.getScheme(), false);
        }
        if (!approvedHosts.contains(stripBrackets(host))) {
            return new Refusal(host + " is not an approved host of this tool (approved: "
                    + String.join(", ", approvedHosts.stream().sorted().toList()) + ")", false);
        }
        if (allowPrivateNetworks) {
            return null;
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(stripBrackets(host));
        } catch (UnknownHostException e) {
            return new Refusal("cannot resolve host " + host, true);
        }
        for (InetAddress address : addresses) {
            String kind = nonPublicKind(address);
            if (kind != null) {
                return new Refusal(host + " resolves to " + address.getHostAddress() + ", a " + kind
                        + " address; private networks are not allowed", false);
            }
        }
        return null;
    }

    static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** The kind of a non-public address, or null for a public one. */
    static String nonPublicKind(InetAddress address) {
        if (address.isLoopbackAddress()) {
            return "loopback";
        }
        if (address.isAnyLocalAddress()) {
            return "unspecified";
        }
        if (address.isLinkLocalAddress()) {
            return "link-local (cloud metadata)";
        }
        if (address.isSiteLocalAddress()) {
            return "private";
        }
        if (address.isMulticastAddress()) {
            return "multicast";
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            if (first == 100 && second >= 64 && second <= 127) {
                return "carrier-grade NAT";
            }
            if (first == 0 || first >= 240) {
                return "reserved";
            }
            if (first == 198 && (second == 18 || second == 19)) {
                return "benchmarking";
            }
        } else if (address instanceof Inet6Address) {
            if ((b[0] & 0xfe) == 0xfc) {
                return "unique-local";
            }
            // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses hide an IPv4 address
            if (isMapped(b) || isNat64(b)) {
                try {
                    InetAddress v4 = InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
                    return nonPublicKind(v4);
                } catch (UnknownHostException e) {
                    return "unparseable";
                }
            }
        }
        return null;
    }

    private static boolean isMapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
    }

    private static boolean isNat64(byte[] b) {
        if (!((b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b)) {
            return false;
        }
        for (int i = 4; i < 12; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
