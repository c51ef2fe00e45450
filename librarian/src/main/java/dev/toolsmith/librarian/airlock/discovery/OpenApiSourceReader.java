package dev.toolsmith.librarian.airlock.discovery;

import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.openapi.CandidateTool;
import dev.toolsmith.openapi.IngestedDocument;
import dev.toolsmith.openapi.IngestionException;
import dev.toolsmith.openapi.OpenApiIngestor;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** An {@code openapi} source: one OpenAPI 3.x / Swagger 2.0 document, one candidate per operation. */
@ApplicationScoped
public class OpenApiSourceReader {

    private final OpenApiIngestor ingestor;

    public OpenApiSourceReader(OpenApiIngestor ingestor) {
        this.ingestor = ingestor;
    }

    public Discovery read(SourceSnapshot source) throws SourceReadException {
        try {
            IngestedDocument document = ingestor.ingest(URI.create(source.url()), ToolSourceType.OPENAPI);
            return toDiscovery(document, "");
        } catch (IngestionException e) {
            throw new SourceReadException(e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new SourceReadException("'" + source.url() + "' is not a valid URL");
        }
    }

    /** Candidates of an ingested document; {@code keyPrefix} keeps keys apart when one source holds many documents. */
    public static Discovery toDiscovery(IngestedDocument document, String keyPrefix) {
        List<DiscoveredTool> tools = new ArrayList<>();
        for (CandidateTool candidate : document.candidates()) {
            tools.add(new DiscoveredTool(keyPrefix + candidate.operationKey(), candidate.manifest(),
                    candidate.operation(), candidate.warnings()));
        }
        List<String> skipped = new ArrayList<>();
        document.skipped().forEach(s -> skipped.add(keyPrefix + s.operationKey() + ": " + s.reason()));
        return new Discovery(tools, skipped);
    }
}
