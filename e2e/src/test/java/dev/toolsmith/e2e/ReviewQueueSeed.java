package dev.toolsmith.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Fills the librarian's review queue of the running platform directly with JDBC batches: {@code sources}
 * sources, the first ten "big" ones scanned OK with {@code candidates / 10} pending candidates each (list,
 * create and delete operations, as a scan of {@code lists.e2e.mjs}'s generated documents files them, with
 * contract-valid manifests), the others FAILED on a document that answered 404. It replaces the real scans
 * that made the long-lists test spend 313 s seeding (embedding 5,000 candidates on two cores): what the test
 * measures is the lists, not the scanner, which its own tests cover. Test code only: the product has no bulk
 * path into the queue.
 */
final class ReviewQueueSeed {

    static final int BIG = 10;
    private static final int BATCH = 500;
    private static final String SERVER = "https://203.0.113.10/v1";
    private static final ObjectMapper JSON = ContractCodec.defaultMapper();

    private ReviewQueueSeed() {
    }

    /** Seeds the queue under {@code prefix} (source names "{prefix} 000 big" … "{prefix} 499"). */
    static void seed(String prefix, String run, int sources, int candidates) throws SQLException {
        int perSource = (int) Math.ceil(candidates / (double) BIG);
        Instant now = Instant.now();
        try (Connection db = Platform.database()) {
            db.setAutoCommit(false);
            UUID[] ids = new UUID[sources];
            try (PreparedStatement source = db.prepareStatement("INSERT INTO librarian.airlock_source (id, name, type, url,"
                    + " interval_seconds, suspend_on_change, status, last_scan_at, next_scan_at, last_error, found_count,"
                    + " new_count, created_by, created_at, updated_at) VALUES (?, ?, 'openapi', ?, 86400, false, ?, ?, ?,"
                    + " ?, ?, ?, 'admin', ?, ?)")) {
                for (int i = 0; i < sources; i++) {
                    ids[i] = UUID.randomUUID();
                    boolean big = i < BIG;
                    String url = "http://127.0.0.1:9/" + (big ? "lists-" : "missing-") + run + "-" + i + ".yaml";
                    source.setObject(1, ids[i]);
                    source.setString(2, prefix + " " + String.format("%03d", i) + (big ? " big" : ""));
                    source.setString(3, url);
                    source.setString(4, big ? "OK" : "FAILED");
                    source.setTimestamp(5, Timestamp.from(now));
                    source.setTimestamp(6, Timestamp.from(now.plusSeconds(86_400)));
                    source.setString(7, big ? null : "the document at " + url + " answered HTTP 404");
                    source.setInt(8, big ? perSource : 0);
                    source.setInt(9, big ? perSource : 0);
                    source.setTimestamp(10, Timestamp.from(now.minusSeconds(sources - i)));
                    source.setTimestamp(11, Timestamp.from(now));
                    source.addBatch();
                }
                source.executeBatch();
            }
            try (PreparedStatement candidate = db.prepareStatement("INSERT INTO librarian.airlock_candidate (id, source_id,"
                    + " operation_key, revision, tool_id, status, content_hash, verb, name, risk, manifest, warnings,"
                    + " discovered_at, updated_at) VALUES (?, ?, ?, 1, ?, 'PENDING', ?, ?, ?, ?, CAST(? AS jsonb), '[]', ?, ?)")) {
                int pending = 0;
                for (int s = 0; s < Math.min(BIG, sources); s++) {
                    for (int op = 0; op < perSource; op++) {
                        Operation operation = Operation.of(op);
                        ToolManifest manifest = operation.manifest();
                        String hash = ContentHash.of(manifest, JSON);
                        Timestamp at = Timestamp.from(now.minusMillis(candidates - pending));
                        candidate.setObject(1, UUID.randomUUID());
                        candidate.setObject(2, ids[s]);
                        candidate.setString(3, operation.key());
                        candidate.setString(4, manifest.id());
                        candidate.setString(5, hash);
                        candidate.setString(6, manifest.verb());
                        candidate.setString(7, manifest.name());
                        candidate.setString(8, manifest.risk().name());
                        candidate.setString(9, JSON.writeValueAsString(manifest.withVersion(1, hash)));
                        candidate.setTimestamp(10, at);
                        candidate.setTimestamp(11, at);
                        candidate.addBatch();
                        if (++pending % BATCH == 0) {
                            candidate.executeBatch();
                        }
                    }
                }
                candidate.executeBatch();
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("a manifest always serialises", e);
            }
            db.commit();
        }
    }

    /**
     * Removes the sources seeded under {@code prefix} that are still there, their candidates with them (the
     * foreign key cascades). The script deletes them through the UI, but a deletion that fails there is only
     * logged: left behind, their 1,500 candidates without vectors would be embedded by the next scan's sync of
     * the librarian's pending index (25 s of AirlockUiIT's scan).
     */
    static int remove(String prefix) throws SQLException {
        try (Connection db = Platform.database();
                PreparedStatement sources = db.prepareStatement("DELETE FROM librarian.airlock_source WHERE name LIKE ?")) {
            sources.setString(1, prefix.replace("%", "\\%").replace("_", "\\_") + " %");
            return sources.executeUpdate();
        }
    }

    /** The n-th operation of a generated document: per group a list (GET), a create (POST) and a delete (DELETE). */
    private record Operation(int group, String method, String path, String operationId, Risk risk, String summary) {

        static Operation of(int n) {
            int group = n / 3;
            return switch (n % 3) {
                case 0 -> new Operation(group, "GET", "/items" + group, "listItems" + group, Risk.READ_ONLY,
                        "List the items of kind " + group);
                case 1 -> new Operation(group, "POST", "/items" + group, "createItem" + group, Risk.WRITE_REMOTE,
                        "Create an item of kind " + group);
                default -> new Operation(group, "DELETE", "/items" + group + "/{id}", "deleteItem" + group,
                        Risk.DESTRUCTIVE, "Delete an item of kind " + group);
            };
        }

        String key() {
            return method + " " + path;
        }

        ToolManifest manifest() {
            String verb = operationId.replaceAll("([a-z])([A-Z0-9])", "$1_$2").toUpperCase();
            String name = verb.toLowerCase();
            List<ParameterBinding> parameters = switch (method) {
                case "GET" -> List.of(new ParameterBinding("q", "q", ParameterLocation.QUERY, "form", true, false));
                case "DELETE" -> List.of(new ParameterBinding("id", "id", ParameterLocation.PATH, "simple", false, true));
                default -> List.of(new ParameterBinding("name", "name", ParameterLocation.BODY, null, null, false));
            };
            JsonNode input = JSON.valueToTree(java.util.Map.of("type", "object", "properties",
                    java.util.Map.of(parameters.get(0).name(), java.util.Map.of("type",
                            method.equals("DELETE") ? "integer" : "string"))));
            JsonNode output = JSON.valueToTree(java.util.Map.of("type", "object"));
            HttpBinding binding = new HttpBinding(method, SERVER, path, parameters,
                    method.equals("POST") ? BodyEncoding.JSON : BodyEncoding.NONE, AuthBinding.none(), 10_000, 1_048_576);
            return new ToolManifest("203.0.113.10:" + name, verb, name, summary, ToolSourceType.OPENAPI, "203.0.113.10",
                    null, List.of(), input, output, risk, binding,
                    HealthProbe.unavailable("no GET without required inputs in this test document"), 1, null);
        }
    }
}
