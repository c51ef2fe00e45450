package dev.toolsmith.openapi.fetch;

import java.net.URI;

/** A fetched body; {@code location} is where it was finally found, after redirects. */
public record FetchedDocument(URI requested, URI location, byte[] body, String contentType) {
}
