package dev.toolsmith.eventing.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad input at the shared REST edge of every service: each is a 400 whose body names the parameter or JSON
 * pointer and what was expected, never a 404, a 500 or a Java class name.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "toolsmith_test_eventing"))
class HostileInputTest {

    private static RequestSpecification planner() {
        return given().header("X-API-Key", "planner-key").urlEncodingEnabled(false);
    }

    @Test
    void goodParametersStillWork() {
        planner().get("/probe/items/abc?namespace=n&page=2&size=5&waitMs=10&source=123e4567-e89b-12d3-a456-426614174000")
                .then().statusCode(200).body(equalTo("3 n 2 5 10 123e4567-e89b-12d3-a456-426614174000"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/probe/items/%00|path parameter id: contains the control character U+0000",
        "/probe/items/a%0Ab|path parameter id: contains the control character U+000A",
        "/probe/items/x?namespace=%00|query parameter namespace: contains the control character U+0000",
        "/probe/items/x?namespace=ok&namespace=a%1Bb|query parameter namespace: contains the control character U+001B",
    })
    void controlCharactersInPathOrQueryAre400NamingTheParameter(String path, String message) {
        planner().get(path).then().statusCode(400).body("status", equalTo(400)).body("error", containsString(message));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // a lone continuation byte, a truncated sequence, an overlong NUL, an encoded surrogate
        "/probe/items/%FF|path parameter id: is not valid UTF-8 once percent-decoded",
        "/probe/items/a%C3|path parameter id: is not valid UTF-8 once percent-decoded",
        "/probe/items/x?namespace=%C0%80|query parameter namespace: is not valid UTF-8 once percent-decoded",
        "/probe/items/x?namespace=%ED%A0%80|query parameter namespace: is not valid UTF-8 once percent-decoded",
        "/probe/items/x?%FF=1|a query parameter name is not valid UTF-8 once percent-decoded",
    })
    void parametersThatAreNotUtf8Are400NamingTheParameter(String path, String message) {
        // Decoded leniently they would become U+FFFD and name a different id than the one the client sent.
        planner().get(path).then().statusCode(400).body("status", equalTo(400)).body("error", containsString(message));
    }

    @Test
    void aBrokenPercentEscapeBesideBadUtf8IsStill400() throws java.io.IOException {
        // HTTP clients refuse to send "%ZZ", so this one goes over a plain socket, as an attacker's would. The
        // HTTP layer refuses the malformed escape itself (an empty 400) before any filter decodes it; what matters
        // is that no decoder further in throws and turns it into a 500.
        String response = rawGet("/probe/items/x?na%ZZme=%FF");
        org.junit.jupiter.api.Assertions.assertTrue(response.startsWith("HTTP/1.1 400"), response);
    }

    private static String rawGet(String target) throws java.io.IOException {
        int port = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("quarkus.http.test-port", Integer.class);
        try (java.net.Socket socket = new java.net.Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            String request = "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nX-API-Key: planner-key\r\n"
                    + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void wellFormedUtf8ParametersStillWork() {
        planner().get("/probe/items/%C3%BCber?namespace=%E2%82%AC%F0%9F%98%80").then().statusCode(200)
                .body(equalTo("4 \u20ac\ud83d\ude00 0 null 0 null"));
    }

    @Test
    void aJsonBodyThatIsNotUtf8Is400NamingTheByte() {
        byte[] latin1 = "{\"name\":\"caf\u00e9\"}".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        planner().contentType("application/json").body(latin1).post("/probe/orders").then().statusCode(400)
                .body("status", equalTo(400))
                .body("error", equalTo("request body: not valid UTF-8 at byte 12 (JSON must be UTF-8)"));
        byte[] overlong = {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'};
        planner().contentType("application/json").body(overlong).post("/probe/orders").then().statusCode(400)
                .body("error", containsString("not valid UTF-8 at byte 9"));
        // The same text in UTF-8 is taken.
        planner().contentType("application/json; charset=utf-8")
                .body("{\"name\":\"caf\u00e9\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .post("/probe/orders").then().statusCode(200).body(equalTo("caf\u00e9"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "size=abc|query parameter size: expected a whole number from -2147483648 to 2147483647, found 'abc'",
        "page=1e3|query parameter page: expected a whole number from -2147483648 to 2147483647, found '1e3'",
        "page=99999999999|query parameter page: expected a whole number",
        "waitMs=abc|query parameter waitMs: expected a whole number from -9223372036854775808",
        "source=not-a-uuid|query parameter source: expected a UUID",
        "source=1-2-3-4-5|query parameter source: expected a UUID",
    })
    void unconvertibleQueryValuesAre400NamingTheParameter(String query, String message) {
        planner().get("/probe/items/x?" + query).then().statusCode(400).body("status", equalTo(400))
                .body("error", containsString(message));
    }

    @Test
    void aNulInAnyJsonStringIs400WithItsPointer() {
        planner().contentType("application/json").body("{\"name\":\"a\\u0000b\"}")
                .post("/probe/orders").then().statusCode(400).body("pointer", equalTo("/name"))
                .body("error", containsString("/name contains the NUL character (U+0000)"));
        // A body the endpoint takes as text and hands to the contract codec is guarded too.
        planner().contentType("application/json")
                .body("{\"stepId\":\"s\\u0000\",\"planId\":\"p\",\"actionVerb\":\"V\",\"inputs\":{}}")
                .post("/probe/steps").then().statusCode(400).body("pointer", equalTo("/stepId"));
        planner().contentType("application/json").body("{\"name\":\"n\",\"lines\":[{\"sku\":\"\\u0000\",\"quantity\":1}]}")
                .post("/probe/orders").then().statusCode(400).body("pointer", equalTo("/lines/0/sku"));
        // An escaped backslash followed by "u0000" is plain text, not NUL.
        planner().contentType("application/json").body("{\"name\":\"\\\\u0000\"}")
                .post("/probe/orders").then().statusCode(200).body(equalTo("\\u0000"));
    }

    @Test
    void malformedJsonIs400SayingWhatIsWrong() {
        planner().contentType("application/json").body("{\"name\":")
                .post("/probe/orders").then().statusCode(400).body("status", equalTo(400))
                .body("error", containsString("not valid JSON"));
        planner().contentType("application/json").body("{name}")
                .post("/probe/orders").then().statusCode(400)
                .body("error", containsString("not valid JSON"));
    }

    @Test
    void wrongShapesAreDescribedInJsonTermsNotJavaClasses() {
        planner().contentType("application/json").body("[1]").post("/probe/orders").then().statusCode(400)
                .body("error", equalTo("not valid JSON for this request: expected an object"))
                .body("error", not(containsString("Order")));
        planner().contentType("application/json").body("{\"ids\":\"x\"}").post("/probe/ids").then().statusCode(400)
                .body("pointer", equalTo("/ids"))
                .body("error", equalTo("not valid JSON for this request at /ids: expected an array"));
        planner().contentType("application/json").body("{\"ids\":[\"nope\"]}").post("/probe/ids").then().statusCode(400)
                .body("pointer", equalTo("/ids/0"))
                .body("error", containsString("expected a UUID string, found 'nope'"))
                .body("error", not(containsString("java.")));
        planner().contentType("application/json").body("{\"at\":\"yesterday\"}").post("/probe/ids").then().statusCode(400)
                .body("pointer", equalTo("/at"))
                .body("error", not(containsString("java.")));
    }
}
