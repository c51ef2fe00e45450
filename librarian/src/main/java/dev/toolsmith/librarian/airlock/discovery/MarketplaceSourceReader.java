package dev.toolsmith.librarian.airlock.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.librarian.airlock.AirlockConfig;
import dev.toolsmith.openapi.IngestedDocument;
import dev.toolsmith.openapi.IngestionException;
import dev.toolsmith.openapi.OpenApiIngestor;
import dev.toolsmith.openapi.fetch.FetchException;
import dev.toolsmith.openapi.fetch.FetchedDocument;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code marketplace} source: an index document listing tool manifests and OpenAPI documents,
 * {@code {"entries": [{"type": "manifest" | "openapi", "url": "..."}]}} (a bare list of entries works
 * too; relative URLs resolve against the index). Every fetch goes through the guarded fetcher. An entry
 * that fails is skipped with its reason; the source fails only if the index itself does, or every entry.
 */
@ApplicationScoped
public class MarketplaceSourceReader {

    private final OpenApiIngestor ingestor;
    private final ManifestFiles manifests;
    private final AirlockConfig config;

    public MarketplaceSourceReader(OpenApiIngestor ingestor, ManifestFiles manifests, AirlockConfig config) {
        this.ingestor = ingestor;
        this.manifests = manifests;
        this.config = config;
    }

    public Discovery read(SourceSnapshot source) throws SourceReadException {
        FetchedDocument index;
        JsonNode tree;
        try {
            index = ingestor.fetcher().fetch(source.url());
            tree = ingestor.readTree(index.body(), "the marketplace index at " + source.url());
        } catch (FetchException | IngestionException e) {
            throw new SourceReadException(e.getMessage(), e);
        }
        JsonNode entries = tree.isArray() ? tree : tree.path("entries");
        if (!entries.isArray()) {
            throw new SourceReadException("the marketplace index at " + source.url()
                    + " has no 'entries' list (expected {\"entries\": [{\"type\": \"manifest\"|\"openapi\", \"url\": ...}]})");
        }
        List<DiscoveredTool> tools = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        int read = 0;
        for (JsonNode entry : entries) {
            if (read++ >= config.marketplaceMaxEntries()) {
                skipped.add("entries past the first " + config.marketplaceMaxEntries() + " were not read");
                break;
            }
            String type = entry.path("type").asText("").toLowerCase(Locale.ROOT);
            String url = entry.path("url").asText("");
            if (url.isBlank()) {
                skipped.add("entry " + (read - 1) + ": no url");
                continue;
            }
            URI target;
            try {
                target = index.location().resolve(url.trim());
            } catch (IllegalArgumentException e) {
                skipped.add(url + ": not a valid URL");
                continue;
            }
            try {
                switch (type) {
                    case "manifest" -> {
                        FetchedDocument file = ingestor.fetcher().fetch(target);
                        tools.addAll(manifests.read(file.body(), target.toString(), ToolSourceType.MARKETPLACE, skipped));
                    }
                    case "openapi" -> {
                        IngestedDocument document = ingestor.ingest(target, ToolSourceType.MARKETPLACE);
                        Discovery found = OpenApiSourceReader.toDiscovery(document, target + " ");
                        tools.addAll(found.tools());
                        skipped.addAll(found.skipped());
                    }
                    default -> skipped.add(target + ": unknown entry type '" + type + "' (manifest or openapi)");
                }
            } catch (FetchException | IngestionException e) {
                skipped.add(target + ": " + e.getMessage());
            }
        }
        if (tools.isEmpty() && !skipped.isEmpty()) {
            throw new SourceReadException("no entry of the marketplace index could be read: " + skipped.get(0)
                    + (skipped.size() > 1 ? " (and " + (skipped.size() - 1) + " more)" : ""));
        }
        return new Discovery(tools, skipped);
    }
}
