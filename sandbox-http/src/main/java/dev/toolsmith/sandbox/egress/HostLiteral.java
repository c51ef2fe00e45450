package dev.toolsmith.sandbox.egress;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the host of a URL the way a resolver would, without asking DNS. An IPv4 address has more
 * spellings than the dotted quad: the C library's {@code inet_aton} (which curl, many proxies and
 * {@code getaddrinfo} follow) also reads one to four parts, each decimal, octal (leading {@code 0}) or
 * hexadecimal ({@code 0x}), so {@code 2852039166}, {@code 0xA9FEA9FE}, {@code 0251.0376.0251.0376} and
 * {@code 169.254.43518} all mean 169.254.169.254. A rule written against the text "169.254.169.254"
 * would miss them; this class turns every such spelling into the address it names.
 */
public final class HostLiteral {

    private HostLiteral() {
    }

    /**
     * The host of {@code uri}: {@link URI#getHost()}, or, when Java's parser gives up on an unusual
     * spelling ({@code 0251.0376.0251.0376}, a trailing dot after an address), the authority without
     * user info and port. Empty string when there is none.
     */
    public static String of(URI uri) {
        if (uri.getHost() != null) {
            return uri.getHost();
        }
        String authority = uri.getRawAuthority();
        if (authority == null) {
            return "";
        }
        int at = authority.lastIndexOf('@');
        String hostPort = at >= 0 ? authority.substring(at + 1) : authority;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            return close > 0 ? hostPort.substring(0, close + 1) : hostPort;
        }
        int colon = hostPort.lastIndexOf(':');
        return colon >= 0 ? hostPort.substring(0, colon) : hostPort;
    }

    /** Lower case, without IPv6 brackets and without the trailing dot of a fully qualified name. */
    public static String normalise(String host) {
        String name = host == null ? "" : host.trim().toLowerCase(Locale.ROOT);
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        }
        while (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return name;
    }

    /** The address {@code host} spells out literally (any IPv4 or IPv6 form), or empty for a name. */
    public static Optional<InetAddress> parse(String host) {
        String name = normalise(host);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        if (name.indexOf(':') >= 0) {
            return ipv6(name);
        }
        return ipv4(name);
    }

    private static Optional<InetAddress> ipv6(String name) {
        int zone = name.indexOf('%');
        String address = zone >= 0 ? name.substring(0, zone) : name; // the zone names an interface, not a host
        for (int i = 0; i < address.length(); i++) {
            char c = address.charAt(i);
            if (Character.digit(c, 16) < 0 && c != ':' && c != '.') {
                return Optional.empty();
            }
        }
        try {
            // a string with a colon is parsed as an IPv6 literal, never looked up
            return Optional.of(InetAddress.getByName(address));
        } catch (UnknownHostException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<InetAddress> ipv4(String name) {
        String[] parts = name.split("\\.", -1);
        if (parts.length > 4) {
            return Optional.empty();
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            Long value = number(parts[i]);
            if (value == null) {
                return Optional.empty();
            }
            values[i] = value;
        }
        // inet_aton: every part but the last is one byte; the last fills the bytes that remain
        long address = 0;
        for (int i = 0; i < values.length - 1; i++) {
            if (values[i] > 0xff) {
                return Optional.empty();
            }
            address |= values[i] << (8 * (3 - i));
        }
        long last = values[values.length - 1];
        int remainingBytes = 4 - (values.length - 1);
        if (last >= (1L << (8 * remainingBytes))) {
            return Optional.empty();
        }
        address |= last;
        byte[] bytes = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        try {
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException impossible) {
            return Optional.empty();
        }
    }

    /** One part of an inet_aton address, or null when the text is not a number in any of its bases. */
    private static Long number(String part) {
        if (part.isEmpty() || part.length() > 34) {
            return null;
        }
        int radix = 10;
        String digits = part;
        if (part.startsWith("0x")) {
            radix = 16;
            digits = part.substring(2);
            if (digits.isEmpty()) {
                return 0L; // "0x" alone is zero to inet_aton
            }
        } else if (part.length() > 1 && part.startsWith("0")) {
            radix = 8;
            digits = part.substring(1);
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            int digit = Character.digit(digits.charAt(i), radix);
            if (digit < 0) {
                return null;
            }
            value = value * radix + digit;
            if (value > 0xffffffffL) {
                return null;
            }
        }
        return value;
    }
}
