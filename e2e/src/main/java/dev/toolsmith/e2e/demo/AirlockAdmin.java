package dev.toolsmith.e2e.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;

/** What an admin does in the airlock, over the librarian's REST API: sources, the queue, approvals. */
public final class AirlockAdmin {

    private final ObjectMapper json = new ObjectMapper();
    private final PlatformClient librarian;

    public AirlockAdmin(String librarianUrl, String adminKey) {
        this.librarian = new PlatformClient(librarianUrl, adminKey);
    }

    /** Registers an OpenAPI source and scans it now; the source's state after the scan. */
    public JsonNode registerAndScan(String name, String documentUrl) {
        ObjectNode source = json.createObjectNode().put("name", name).put("type", "openapi").put("url", documentUrl)
                .put("intervalSeconds", 3600);
        String id = librarian.post("/tools/sources", source, 201).path("id").asText();
        JsonNode scanned = librarian.post("/tools/sources/" + id + "/scan", json.createObjectNode(), 200);
        JsonNode error = scanned.path("lastError");
        if (!error.isMissingNode() && !error.isNull()) {
            throw new IllegalStateException("scanning " + documentUrl + " failed: " + error.asText());
        }
        return scanned;
    }

    /** The source's queue, first page. */
    public JsonNode pending(String sourceId) {
        return librarian.get("/tools/pending?source=" + sourceId + "&size=100").path("items");
    }

    /** The queued candidate of {@code sourceId} for {@code verb}. */
    public JsonNode candidate(String sourceId, String verb) {
        for (JsonNode item : pending(sourceId)) {
            if (verb.equals(item.path("verb").asText())) {
                return item;
            }
        }
        throw new IllegalStateException(verb + " is not in the review queue of source " + sourceId);
    }

    /**
     * Approves the candidate with {@code policy} and waits until the engineer's build is in: the
     * candidate's details when it became {@code ACTIVE} and its tool is in the catalog. A candidate that
     * replaces a tool in service (an earlier run registered the same API as another source) is approved
     * with the explicit confirmation the librarian asks for, after saying so; one the librarian refuses
     * (its verb belongs to another tool) fails with the librarian's reason.
     */
    public JsonNode approveAndAwaitActive(JsonNode candidate, JsonNode policy, Duration timeout) {
        String id = candidate.path("id").asText();
        ObjectNode approval = json.createObjectNode();
        approval.set("policy", policy);
        for (JsonNode collision : librarian.get("/tools/pending/" + id).path("collisions")) {
            String kind = collision.path("kind").asText();
            if ("REFUSED".equals(kind)) {
                throw new IllegalStateException("the librarian refuses " + candidate.path("toolId").asText() + ": "
                        + collision.path("message").asText());
            }
            if ("REPLACES".equals(kind)) {
                System.out.printf("   %s replaces the tool of the same id from %s (an earlier run); confirmed%n",
                        collision.path("toolId").asText(), collision.path("source").asText());
                approval.put("confirmReplace", collision.path("toolId").asText());
            }
        }
        librarian.post("/tools/pending/" + id + "/approve", approval, 200);
        JsonNode details = Poll.until(timeout, () -> {
            JsonNode current = librarian.get("/tools/pending/" + id);
            String status = current.path("status").asText();
            return "ACTIVE".equals(status) || "BUILD_FAILED".equals(status) ? current : null;
        }).orElseThrow(() -> new IllegalStateException("no build outcome for " + id + " within " + timeout.toSeconds() + " s"));
        if (!"ACTIVE".equals(details.path("status").asText())) {
            throw new IllegalStateException("the engineer's build failed: " + details.path("buildFailure").asText());
        }
        String toolId = candidate.path("toolId").asText();
        Poll.until(timeout, () -> librarian.getOrNull("/tools/" + toolId))
                .orElseThrow(() -> new IllegalStateException(toolId + " never reached the catalog"));
        return details;
    }

    public JsonNode gaps() {
        return librarian.get("/gaps?size=100").path("items");
    }

    public JsonNode notifications() {
        return librarian.get("/notifications?size=100");
    }

    public ObjectNode newObject() {
        return json.createObjectNode();
    }
}
