package dev.toolsmith.bench.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.search.sets.RetrievalSets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Tools no search can tell apart: the same name, description and parameter names. A real catalog holds many
 * (APIs.guru's directory has GitHub's REST API once per GitHub Enterprise version, and 14 % of its 83,600 tools have
 * such a twin), and a query labelled with one of them is served as well by the other. With
 * {@code --twins-right true} the benchmark counts a twin of a right tool as right.
 */
final class ToolTwins {

    private ToolTwins() {
    }

    /** The queries with every twin of a right tool added to their right tools, after the labelled ones. */
    static List<RetrievalSets.LabelledQuery> asGold(List<JsonNode> rawTools,
            List<RetrievalSets.LabelledQuery> queries) {
        Map<Identity, List<String>> idsByIdentity = new HashMap<>();
        Map<String, Identity> identityById = new HashMap<>();
        for (JsonNode tool : rawTools) {
            String id = tool.path("id").asText();
            Identity identity = Identity.of(tool);
            idsByIdentity.computeIfAbsent(identity, k -> new ArrayList<>()).add(id);
            identityById.put(id, identity);
        }
        List<RetrievalSets.LabelledQuery> out = new ArrayList<>(queries.size());
        for (RetrievalSets.LabelledQuery q : queries) {
            Set<String> gold = new LinkedHashSet<>(q.gold());
            for (String id : q.gold()) {
                Identity identity = identityById.get(id);
                if (identity != null) {
                    gold.addAll(idsByIdentity.get(identity));
                }
            }
            out.add(new RetrievalSets.LabelledQuery(q.id(), q.text(), q.verb(), q.inputs(), List.copyOf(gold)));
        }
        return out;
    }

    /** What the search reads of a tool, less its API: name, description and top-level parameter names. */
    record Identity(String name, String description, Set<String> parameters) {
        static Identity of(JsonNode tool) {
            Set<String> parameters = new TreeSet<>();
            for (Iterator<String> it = tool.path("parameters").path("properties").fieldNames(); it.hasNext();) {
                parameters.add(it.next());
            }
            return new Identity(tool.path("name").asText(), tool.path("description").asText(), parameters);
        }
    }
}
