package dev.toolsmith.librarian.airlock.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.UnhashableContent;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.openapi.IngestionException;
import dev.toolsmith.openapi.OpenApiIngestor;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns a manifest file (JSON or YAML, one manifest or a list of them) from a git repository or a
 * marketplace into discovered tools: read under the ingestion limits, validated against the
 * tool-manifest contract, stamped with the source type and content-hashed. A manifest without a risk is
 * given the one its HTTP method implies, or WRITE_REMOTE when it has no binding: unknown means careful.
 */
@ApplicationScoped
public class ManifestFiles {

    private final OpenApiIngestor ingestor;
    private final ContractCodec codec;

    public ManifestFiles(OpenApiIngestor ingestor, ContractCodec codec) {
        this.ingestor = ingestor;
        this.codec = codec;
    }

    /** The tools in one file; problems with single manifests go to {@code skipped}. */
    public List<DiscoveredTool> read(byte[] content, String key, ToolSourceType source, List<String> skipped)
            throws IngestionException {
        JsonNode tree = ingestor.readTree(content, key);
        List<JsonNode> manifests = new ArrayList<>();
        if (tree.isArray()) {
            tree.forEach(manifests::add);
        } else {
            manifests.add(tree);
        }
        List<DiscoveredTool> tools = new ArrayList<>();
        for (int i = 0; i < manifests.size(); i++) {
            String itemKey = manifests.size() == 1 ? key : key + "#" + i;
            JsonNode json = manifests.get(i);
            try {
                if (json.isObject()) {
                    ((ObjectNode) json).remove(List.of("contentHash", "version"));
                }
                ToolManifest manifest = codec.read(json, ToolManifest.class);
                tools.add(new DiscoveredTool(itemKey, stamp(manifest, source), null, List.of()));
            } catch (ContractViolation | UnhashableContent violation) {
                skipped.add(itemKey + ": not a valid tool manifest: " + violation.getMessage());
            }
        }
        return tools;
    }

    private ToolManifest stamp(ToolManifest m, ToolSourceType source) {
        Risk risk = m.risk() != null ? m.risk() : m.binding() == null ? Risk.WRITE_REMOTE
                : switch (m.binding().method().toUpperCase(Locale.ROOT)) {
                    case "GET", "HEAD", "OPTIONS" -> Risk.READ_ONLY;
                    case "DELETE" -> Risk.DESTRUCTIVE;
                    default -> Risk.WRITE_REMOTE;
                };
        ToolManifest stamped = new ToolManifest(m.id(), m.verb(), m.name(), m.description(), source, m.namespace(),
                m.domain(), m.tags(), m.inputSchema(), m.outputSchema(), risk, m.binding(), m.healthProbe(), 0, null);
        return stamped.withVersion(0, ContentHash.of(stamped, codec.mapper()));
    }
}
