package dev.toolsmith.librarian.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.ToolManifest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Base64;
import java.util.List;

/** Builds the {@link CatalogEntry} of a tool from its catalog rows, and reads stored manifests. */
@ApplicationScoped
public class CatalogEntries {

    private final ContractCodec codec;

    public CatalogEntries(ContractCodec codec) {
        this.codec = codec;
    }

    public CatalogEntry of(CatalogTool tool, CatalogToolVersion version) {
        return new CatalogEntry(tool.id, tool.revision, version.version, tool.status, manifest(version.manifest),
                List.of(tool.allowedCallers), version.vectorModel, Base64.getEncoder().encodeToString(version.vectors));
    }

    /** A manifest this service wrote itself (validated when it came in). */
    public ToolManifest manifest(String json) {
        try {
            return codec.mapper().readValue(json, ToolManifest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored manifest is not readable: " + e.getOriginalMessage(), e);
        }
    }

    public String json(ToolManifest manifest) {
        try {
            return codec.mapper().writeValueAsString(manifest);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a manifest is always serialisable", e);
        }
    }
}
