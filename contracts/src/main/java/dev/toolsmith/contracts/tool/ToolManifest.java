package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One shape for every tool, internal or wrapped. On input the planner-world names are accepted too:
 * {@code explanation} for the description and {@code inputDefinitions}/{@code outputDefinitions}
 * (lists of {@code {name, type, required, description}}) for the schemas, which are turned into JSON
 * Schema here so the rest of the platform sees one form.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolManifest(
        String id,
        String verb,
        String name,
        @JsonAlias("explanation") String description,
        ToolSourceType source,
        String namespace,
        String domain,
        List<String> tags,
        @JsonAlias("inputDefinitions") JsonNode inputSchema,
        @JsonAlias("outputDefinitions") JsonNode outputSchema,
        Risk risk,
        HttpBinding binding,
        HealthProbe healthProbe,
        int version,
        String contentHash) {

    public ToolManifest {
        tags = tags == null ? List.of() : List.copyOf(tags);
        inputSchema = PlannerDefinitions.toJsonSchema(inputSchema);
        outputSchema = PlannerDefinitions.toJsonSchema(outputSchema);
    }

    /** The same tool at another catalog version with the given content hash. */
    public ToolManifest withVersion(int newVersion, String hash) {
        return new ToolManifest(id, verb, name, description, source, namespace, domain, tags, inputSchema,
                outputSchema, risk, binding, healthProbe, newVersion, hash);
    }

    /** A wrapped HTTP tool has a binding; an internal one runs in-process. */
    @JsonIgnore
    public boolean isWrappedHttp() {
        return binding != null;
    }
}
