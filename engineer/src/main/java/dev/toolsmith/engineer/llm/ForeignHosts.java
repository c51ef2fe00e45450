package dev.toolsmith.engineer.llm;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the URLs and host names in a text that are not among the allowed hosts. A description the LLM
 * wrote goes into the catalog that planners read: it must not point them (or a later LLM) anywhere the
 * admin did not approve. Anything that looks like a domain name counts, so this errs on refusing.
 */
public final class ForeignHosts {

    private static final Pattern URL = Pattern.compile("(?i)\\b[a-z][a-z0-9+.-]*://[^\\s\"'<>()]+");
    private static final Pattern HOST = Pattern.compile("(?i)\\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z]{2,24}\\b");

    private ForeignHosts() {
    }

    /** The offending URLs or hosts of {@code text}, in order of appearance; empty when there are none. */
    public static Set<String> in(String text, Set<String> allowedHosts) {
        Set<String> foreign = new LinkedHashSet<>();
        String rest = text;
        Matcher url = URL.matcher(text);
        while (url.find()) {
            String host = hostOf(url.group());
            if (host == null || !allowedHosts.contains(host)) {
                foreign.add(url.group());
            }
        }
        rest = URL.matcher(rest).replaceAll(" ");
        Matcher host = HOST.matcher(rest);
        while (host.find()) {
            String name = host.group().toLowerCase(Locale.ROOT);
            if (!allowedHosts.contains(name)) {
                foreign.add(host.group());
            }
        }
        return foreign;
    }

    /** The lower-case host of an http(s) URL, or null. */
    public static String hostOf(String url) {
        try {
            String host = new URI(url).getHost();
            return host == null ? null : host.toLowerCase(Locale.ROOT);
        } catch (Exception e) {
            return null;
        }
    }
}
