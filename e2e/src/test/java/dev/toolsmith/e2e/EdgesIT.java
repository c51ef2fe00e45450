package dev.toolsmith.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.testsupport.KafkaTestClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad input at the edges of the running platform: refused with the right status, services unharmed. */
@ExtendWith(Platform.class)
class EdgesIT {

    @ParameterizedTest
    @CsvSource({Platform.LIBRARIAN_PORT + ", /tools/search", Platform.CAPABILITIES_PORT + ", /steps",
            Platform.ENGINEER_PORT + ", /builds"})
    void everyServiceIsHealthyAndServesItsContract(String port, String ownPath) {
        given().get("http://127.0.0.1:" + port + "/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"));
        Map<String, Object> paths = given().accept("application/json").queryParam("format", "json")
                .get("http://127.0.0.1:" + port + "/q/openapi").then().statusCode(200)
                .body("openapi", startsWith("3.")).extract().jsonPath().getMap("paths");
        assertThat(paths).as("the service's own API is in its contract").containsKey(ownPath);
    }

    @Test
    void unauthenticatedCallsGet401WithTheSchemeToUse() {
        given().contentType("application/json").body("{\"queryText\":\"weather\"}")
                .post(Platform.librarian() + "/tools/search").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("Bearer"));
        given().contentType("application/json").body("{}")
                .post(Platform.capabilities() + "/steps").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("Bearer"));
        given().get(Platform.engineer() + "/builds").then().statusCode(401).header("WWW-Authenticate", startsWith("Bearer"));
    }

    @Test
    void oversizedBodiesGet413() {
        String huge = "{\"queryText\":\"" + "x".repeat(2_000_000) + "\"}";
        given().header("X-API-Key", Platform.get().plannerKey()).contentType("application/json").body(huge)
                .post(Platform.librarian() + "/tools/search").then().statusCode(413);
        given().header("X-API-Key", Platform.get().plannerKey()).contentType("application/json").body(huge)
                .post(Platform.capabilities() + "/steps").then().statusCode(413);
    }

    @Test
    void malformedStepsGoToTheDeadLetterTopicWithTheReasonAndDoNotBlockThePartition() {
        String planId = "edges-" + UUID.randomUUID();
        // A planner sends and reads its results; only the admin may look into the dead-letter topic.
        try (KafkaTestClient kafka = Platform.get().kafkaClient("planner");
                KafkaTestClient admin = Platform.get().kafkaClient("admin");
                KafkaTestClient.Reader dlq = admin.reader(Topics.PLAN_STEPS + ".dlq");
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            String marker = "not json " + planId;
            kafka.sendRaw(Topics.PLAN_STEPS, planId, marker.getBytes(StandardCharsets.UTF_8));
            // Same key, so the same partition: it must still flow after the bad record.
            PlanStep good = new PlanStep(UUID.randomUUID().toString(), planId, "EVALUATE_EXPRESSION", "add",
                    Map.of("expression", StepInput.literal(JsonNodeFactory.instance.textNode("1 + 2"), "string")),
                    Map.of(), "planner");
            kafka.send(Topics.PLAN_STEPS, planId, good);

            List<ConsumerRecord<String, byte[]>> dead = dlq.awaitMatching(
                    r -> new String(r.value(), StandardCharsets.UTF_8).equals(marker), Duration.ofSeconds(60));
            assertThat(dead).hasSize(1);
            assertThat(dlq.headersOf(dead.get(0)).get("dead-letter-reason")).isNotBlank();

            List<ConsumerRecord<String, byte[]>> answered = results.awaitMatching(r -> good.stepId()
                    .equals(result(kafka, r).stepId()), Duration.ofSeconds(60));
            assertThat(answered).hasSize(1);
            assertThat(result(kafka, answered.get(0)).status()).isEqualTo(StepStatus.SUCCEEDED);
        }
    }

    @Test
    void aStepWithoutThePlannersSignatureIsDeadLetteredAndNeverRuns() {
        String planId = "edges-unsigned-" + UUID.randomUUID();
        // Logged in to the broker as the planner, but not signing: the broker lets it write plan-steps, the
        // capabilities manager does not run it (the step's caller comes from the signature, not from its body).
        try (KafkaTestClient unsigned = new KafkaTestClient(Platform.kafka(), null, Platform.get().kafkaLogin("planner"),
                "planner-test-");
                KafkaTestClient admin = Platform.get().kafkaClient("admin");
                KafkaTestClient.Reader dlq = admin.reader(Topics.PLAN_STEPS + ".dlq");
                KafkaTestClient.Reader results = unsigned.reader(Topics.STEP_RESULTS)) {
            PlanStep step = new PlanStep(UUID.randomUUID().toString(), planId, "EVALUATE_EXPRESSION", "add",
                    Map.of("expression", StepInput.literal(JsonNodeFactory.instance.textNode("1 + 2"), "string")),
                    Map.of(), "planner");
            unsigned.send(Topics.PLAN_STEPS, planId, step);

            List<ConsumerRecord<String, byte[]>> dead = dlq.awaitMatching(r -> planId.equals(r.key()), Duration.ofSeconds(60));
            assertThat(dead).hasSize(1);
            assertThat(dlq.headersOf(dead.get(0)).get("dead-letter-reason")).startsWith("unsigned plan step");
            assertThat(results.pollFor(Duration.ofSeconds(2))).noneMatch(r -> step.stepId().equals(result(unsigned, r).stepId()));
        }
    }

    @Test
    void aNulInAPathOrQueryParameterIsA400NamingTheParameter() {
        String admin = Platform.get().adminKey();
        String planner = Platform.get().plannerKey();
        assertNamed(given().urlEncodingEnabled(false).header("X-API-Key", admin).get(Platform.librarian() + "/tools/%00"),
                "path parameter id: contains the control character U+0000");
        assertNamed(given().urlEncodingEnabled(false).header("X-API-Key", admin).get(Platform.librarian() + "/tools?namespace=%00"),
                "query parameter namespace: contains the control character U+0000");
        assertNamed(given().urlEncodingEnabled(false).header("X-API-Key", planner).get(Platform.capabilities() + "/steps/%00"),
                "path parameter stepId: contains the control character U+0000");
        assertNamed(given().urlEncodingEnabled(false).header("X-API-Key", admin).get(Platform.engineer() + "/builds?toolId=%00"),
                "query parameter toolId: contains the control character U+0000");
    }

    @Test
    void aNulInAJsonStringIsA400WithItsPointer() {
        String body = "{\"stepId\":\"edges-\\u0000\",\"planId\":\"p\",\"actionVerb\":\"EVALUATE_EXPRESSION\","
                + "\"inputs\":{\"expression\":{\"value\":\"1 + 2\",\"valueType\":\"string\"}}}";
        io.restassured.response.Response refused = given().header("X-API-Key", Platform.get().plannerKey())
                .contentType("application/json").body(body).post(Platform.capabilities() + "/steps");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.jsonPath().getString("pointer")).isEqualTo("/stepId");
        assertThat(refused.jsonPath().getString("error")).contains("/stepId contains the NUL character (U+0000)");
    }

    @Test
    void unconvertibleQueryValuesAreA400NamingTheParameterNotA404() {
        String admin = Platform.get().adminKey();
        assertNamed(given().header("X-API-Key", admin).get(Platform.librarian() + "/tools?size=abc"),
                "query parameter size: expected a whole number from -2147483648 to 2147483647, found 'abc'");
        assertNamed(given().header("X-API-Key", admin).get(Platform.librarian() + "/tools?page=1e3"),
                "query parameter page: expected a whole number");
        assertNamed(given().header("X-API-Key", admin).get(Platform.librarian() + "/tools?page=99999999999"),
                "query parameter page: expected a whole number");
        assertNamed(given().header("X-API-Key", admin).get(Platform.librarian() + "/tools/pending?source=not-a-uuid"),
                "query parameter source: expected a UUID");
        assertNamed(given().header("X-API-Key", Platform.get().plannerKey()).contentType("application/json").body("{}")
                .post(Platform.capabilities() + "/steps?waitMs=abc"), "query parameter waitMs: expected a whole number");
    }

    @Test
    void malformedOrMisshapenJsonIsDescribedWithoutJavaClassNames() {
        String admin = Platform.get().adminKey();
        io.restassured.response.Response malformed = given().header("X-API-Key", admin).contentType("application/json")
                .body("{\"url\":").post(Platform.librarian() + "/tools/sources");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.jsonPath().getString("error")).startsWith("not valid JSON");
        io.restassured.response.Response misshapen = given().header("X-API-Key", admin).contentType("application/json")
                .body("[1]").post(Platform.librarian() + "/tools/sources");
        assertThat(misshapen.statusCode()).isEqualTo(400);
        assertThat(misshapen.jsonPath().getString("error")).contains("expected an object")
                .doesNotContain("SourceRequest").doesNotContain("java.");
    }

    @Test
    void aSignInThatIsNotAFormIsA415NotA500() {
        String ui = "http://127.0.0.1:" + Platform.UI_PORT;
        io.restassured.response.Response json = given().header("X-Requested-With", "edges").contentType("application/json")
                .body("{}").post(ui + "/api/session/login");
        assertThat(json.statusCode()).isEqualTo(415);
        assertThat(json.jsonPath().getString("error")).contains("application/x-www-form-urlencoded");
        io.restassured.response.Response missing = given().header("X-Requested-With", "edges")
                .contentType("application/x-www-form-urlencoded").formParam("username", "admin")
                .post(ui + "/api/session/login");
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(missing.jsonPath().getString("error")).isEqualTo("password: required (a form field)");
    }

    @Test
    void madeUpPathsDoNotBecomeMetricLabels() {
        String marker = "edges-" + UUID.randomUUID();
        given().get(Platform.librarian() + "/" + marker);
        given().header("X-API-Key", "guessed").get(Platform.capabilities() + "/steps/" + marker + "/x").then().statusCode(401);
        for (String service : List.of(Platform.librarian(), Platform.capabilities())) {
            assertThat(given().get(service + "/q/metrics").then().statusCode(200).extract().asString())
                    .contains("http_server_requests_seconds_count").doesNotContain(marker);
        }
    }

    @Test
    void theServicesListenOnLoopbackOnly() throws Exception {
        java.util.Optional<java.net.InetAddress> external = java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())
                .stream().filter(i -> { try { return i.isUp() && !i.isLoopback(); } catch (java.net.SocketException e) { return false; } })
                .flatMap(i -> java.util.Collections.list(i.getInetAddresses()).stream())
                .filter(a -> a instanceof java.net.Inet4Address && !a.isLoopbackAddress()).findFirst();
        org.junit.jupiter.api.Assumptions.assumeTrue(external.isPresent(), "this machine has no non-loopback IPv4 address");
        for (int port : new int[] {Platform.UI_PORT, Platform.LIBRARIAN_PORT, Platform.CAPABILITIES_PORT, Platform.ENGINEER_PORT}) {
            try (java.net.Socket socket = new java.net.Socket()) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> socket.connect(
                        new java.net.InetSocketAddress(external.get(), port), 2_000))
                        .as("port %d on %s", port, external.get()).isInstanceOf(java.io.IOException.class);
            }
        }
    }

    private static void assertNamed(io.restassured.response.Response response, String message) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(400);
        assertThat(response.jsonPath().getInt("status")).isEqualTo(400);
        assertThat(response.jsonPath().getString("error")).contains(message);
    }

    private static StepResult result(KafkaTestClient kafka, ConsumerRecord<String, byte[]> record) {
        return kafka.codec().payload(kafka.codec().openEnvelope(record.value()), StepResult.class);
    }
}
