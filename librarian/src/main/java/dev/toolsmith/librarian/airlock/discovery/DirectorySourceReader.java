package dev.toolsmith.librarian.airlock.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.librarian.airlock.AirlockConfig;
import dev.toolsmith.openapi.IngestionException;
import dev.toolsmith.openapi.OpenApiIngestor;
import dev.toolsmith.openapi.fetch.FetchException;
import dev.toolsmith.openapi.fetch.FetchedDocument;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A {@code directory} source: a public API directory in the APIs.guru {@code list.json} format. Scanning
 * it (on demand only) loads the list of APIs into the {@link DirectoryCatalog}; no API is ingested until
 * a capability gap asks for one, which keeps thousands of unreviewed specs out of the queue.
 */
@ApplicationScoped
public class DirectorySourceReader {

    private final OpenApiIngestor ingestor;
    private final DirectoryCatalog catalog;
    private final AirlockConfig config;

    public DirectorySourceReader(OpenApiIngestor ingestor, DirectoryCatalog catalog, AirlockConfig config) {
        this.ingestor = ingestor;
        this.catalog = catalog;
        this.config = config;
    }

    public Discovery read(SourceSnapshot source) throws SourceReadException {
        if (!config.directoryEnabled()) {
            throw new SourceReadException("directory sources are off (toolsmith.airlock.directory.enabled=false)");
        }
        return new Discovery(List.of(), List.of(), false, load(source));
    }

    /** Fetches the directory's list into the catalog; returns how many APIs it lists. */
    public int load(SourceSnapshot source) throws SourceReadException {
        JsonNode list;
        try {
            FetchedDocument fetched = ingestor.fetcher().fetch(source.url());
            list = ingestor.readTree(fetched.body(), "the directory list at " + source.url());
        } catch (FetchException | IngestionException e) {
            throw new SourceReadException(e.getMessage(), e);
        }
        if (!list.isObject()) {
            throw new SourceReadException("the directory list at " + source.url()
                    + " is not an APIs.guru list.json object (API name → versions)");
        }
        List<DirectoryCatalog.DirectoryApi> apis = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> entries = list.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            JsonNode versions = entry.getValue().path("versions");
            String preferred = entry.getValue().path("preferred").asText("");
            JsonNode version = versions.has(preferred) ? versions.get(preferred)
                    : versions.elements().hasNext() ? versions.elements().next() : null;
            if (version == null) {
                continue;
            }
            String spec = version.path("swaggerUrl").asText(version.path("openapiUrl").asText(""));
            if (spec.isBlank()) {
                continue;
            }
            JsonNode info = version.path("info");
            List<String> categories = new ArrayList<>();
            info.path("x-apisguru-categories").forEach(c -> categories.add(c.asText()));
            apis.add(new DirectoryCatalog.DirectoryApi(entry.getKey(), info.path("title").asText(entry.getKey()),
                    info.path("description").asText(""), categories, spec));
        }
        if (apis.isEmpty()) {
            throw new SourceReadException("the directory list at " + source.url() + " lists no API with a spec URL");
        }
        catalog.replace(source.id(), apis);
        return apis.size();
    }
}
