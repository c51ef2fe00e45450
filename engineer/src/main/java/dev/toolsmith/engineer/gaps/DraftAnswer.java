package dev.toolsmith.engineer.gaps;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.output.structured.Description;
import dev.toolsmith.contracts.tool.Risk;

/**
 * The LLM's specification of the tool a capability gap is missing, as the library reads it
 * ({@link DraftService}); unchecked until {@link DraftManifest#read}. The schemas are {@link JsonNode}s, kept
 * exactly as written: the library describes a JsonNode field as an object and reads any JSON into it, so the
 * draft's own check names a schema that is not an object (an {@code ObjectNode} field would be described by
 * its Java internals, {@code _children}, in the format instruction). An unknown {@code risk} fails the read.
 */
public record DraftAnswer(
        @Description("one paragraph of 20 to 1000 characters: what the tool does, what it needs and what it"
                + " returns; no URLs or host names") String description,
        @Description("a JSON Schema of \"type\": \"object\" whose \"properties\" hold every input listed, each with"
                + " its own JSON Schema, and a \"required\" list") JsonNode inputSchema,
        @Description("a JSON Schema of \"type\": \"object\" whose \"properties\" hold what the tool returns")
        JsonNode outputSchema,
        @Description("what the tool can do to the world") Risk risk) {
}
