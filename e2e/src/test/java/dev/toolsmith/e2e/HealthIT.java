package dev.toolsmith.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.e2e.demo.AirlockAdmin;
import dev.toolsmith.e2e.demo.FxRatesApi;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Health checks across the real services: the external API starts failing → the capabilities manager
 * disables the plugin, the librarian drops it from search and raises a notification; the API recovers →
 * the plugin comes back into service and search.
 */
@ExtendWith(Platform.class)
class HealthIT {

    @Test
    void aFailingApiLeavesTheCatalogAndComesBackWhenItRecovers() {
        try (FxRatesApi api = new FxRatesApi("fx-health-it", "healthIt_")) {
            AirlockAdmin airlock = new AirlockAdmin(Platform.librarian(), Platform.get().adminKey());
            JsonNode source = airlock.registerAndScan("health-it", api.documentUrl());
            JsonNode candidate = airlock.candidate(source.path("id").asText(), "HEALTH_IT_LIST_CURRENCIES");
            airlock.approveAndAwaitActive(candidate, airlock.newObject(), Duration.ofMinutes(3));
            String toolId = candidate.path("toolId").asText();
            String plugin = Platform.capabilities() + "/plugins/" + toolId;

            await().atMost(Duration.ofSeconds(60)).until(() -> admin().get(plugin).statusCode() == 200);
            admin().contentType("application/json")
                    .body(Map.of("intervalSeconds", 1, "failuresToDisable", 2, "successesToEnable", 2))
                    .put(plugin + "/health-thresholds").then().statusCode(200);
            // the catalog's search index follows the tool-catalog topic: found once it has caught up
            await().atMost(Duration.ofSeconds(30)).until(() -> searchHits().contains(toolId));

            api.setFailing(true);
            await().atMost(Duration.ofSeconds(60)).until(() -> "DISABLED".equals(status(plugin)));
            await().atMost(Duration.ofSeconds(30)).until(() -> !searchHits().contains(toolId));
            await().atMost(Duration.ofSeconds(30)).until(() -> notified("PLUGIN_DISABLED", toolId));

            api.setFailing(false);
            await().atMost(Duration.ofSeconds(60)).until(() -> "ENABLED".equals(status(plugin)));
            await().atMost(Duration.ofSeconds(30)).until(() -> searchHits().contains(toolId));
        }
    }

    private static io.restassured.specification.RequestSpecification admin() {
        return given().header("X-API-Key", Platform.get().adminKey());
    }

    private static String status(String plugin) {
        return admin().get(plugin).then().statusCode(200).extract().path("status");
    }

    private static List<String> searchHits() {
        JsonPath reply = given().header("X-API-Key", Platform.get().plannerKey()).contentType("application/json")
                .body(Map.of("queryText", "list the currencies the FX rates service supports", "limit", 20))
                .post(Platform.librarian() + "/tools/search").then().statusCode(200).extract().jsonPath();
        return reply.getList("toolId");
    }

    private static boolean notified(String kind, String toolId) {
        List<Map<String, Object>> items = admin().get(Platform.librarian() + "/notifications?size=100").then()
                .statusCode(200).extract().jsonPath().getList("items");
        return items.stream().anyMatch(n -> kind.equals(n.get("kind")) && toolId.equals(n.get("subjectId")));
    }
}
