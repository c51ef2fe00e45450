package dev.toolsmith.bench.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.search.sets.RetrievalSets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which tools count as right with {@code --twins-right true}. */
class ToolTwinsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode tool(String id, String name, String description, String... parameters) throws Exception {
        StringBuilder props = new StringBuilder();
        for (String p : parameters) {
            props.append(props.isEmpty() ? "" : ",").append(JSON.writeValueAsString(p))
                    .append(":{\"type\":\"string\"}");
        }
        return JSON.readTree("{\"id\":" + JSON.writeValueAsString(id) + ",\"name\":" + JSON.writeValueAsString(name)
                + ",\"description\":" + JSON.writeValueAsString(description)
                + ",\"parameters\":{\"type\":\"object\",\"properties\":{" + props + "}}}");
    }

    private static RetrievalSets.LabelledQuery step(String... gold) {
        return new RetrievalSets.LabelledQuery("q", null, "GET_REPO", List.of("owner"), List.of(gold));
    }

    @Test
    void theSameOperationInAnotherVersionOfTheApiIsRightToo() throws Exception {
        List<JsonNode> tools = List.of(
                tool("ghes-3.1:repos_get", "repos_get", "Get a repository", "owner", "repo"),
                tool("ghes-3.2:repos_get", "repos_get", "Get a repository", "repo", "owner"), // order does not matter
                tool("github:repos_get", "repos_get", "Get a repository", "owner", "repo", "accept"), // one more input
                tool("gitlab:repos_get", "repos_get", "Get a project", "owner", "repo")); // another description

        List<RetrievalSets.LabelledQuery> out = ToolTwins.asGold(tools, List.of(step("ghes-3.1:repos_get")));

        assertThat(out.get(0).gold()).containsExactly("ghes-3.1:repos_get", "ghes-3.2:repos_get");
        assertThat(out.get(0).verb()).isEqualTo("GET_REPO");
        assertThat(out.get(0).inputs()).containsExactly("owner");
    }

    @Test
    void aToolWithoutTwinsAndAnIdTheCatalogLacksAreLeftAsLabelled() throws Exception {
        List<JsonNode> tools = List.of(tool("a", "alpha", "first"), tool("b", "beta", "second"));

        List<RetrievalSets.LabelledQuery> out = ToolTwins.asGold(tools, List.of(step("a"), step("missing", "b")));

        assertThat(out.get(0).gold()).containsExactly("a");
        assertThat(out.get(1).gold()).containsExactly("missing", "b");
    }

    /** Fields are compared one by one: moving a NUL or a word from the name into the description makes no twin. */
    @Test
    void textShiftedBetweenFieldsIsNoTwin() throws Exception {
        List<JsonNode> tools = new ArrayList<>();
        tools.add(tool("x", "get\u0000it", "", "p"));
        tools.add(tool("y", "get", "\u0000it", "p"));
        tools.add(tool("z", "get", "it", "p\u0000q"));
        tools.add(tool("w", "get", "it", "p", "q"));

        List<RetrievalSets.LabelledQuery> out = ToolTwins.asGold(tools, List.of(step("x"), step("z")));

        assertThat(out.get(0).gold()).containsExactly("x");
        assertThat(out.get(1).gold()).containsExactly("z");
    }
}
