package dev.toolsmith.ui.proxy;

import java.net.URI;

/**
 * One forwarded API: calls to {@code <prefix>/<path>} go to {@code <baseUrl>/<path>} of the named service.
 */
public record ServiceRoute(String service, String prefix, URI baseUrl) {

    /** The path to call on the service for a UI path under this route's prefix, always starting with '/'. */
    public String upstreamPath(String uiPath) {
        String rest = uiPath.substring(prefix.length());
        return rest.isEmpty() ? "/" : rest;
    }

    /** The absolute URL on the service, keeping any path the base URL already has. */
    public String upstreamUrl(String uiPath, String query) {
        String base = baseUrl.toString().replaceAll("/+$", "");
        return base + upstreamPath(uiPath) + (query == null || query.isEmpty() ? "" : "?" + query);
    }
}
