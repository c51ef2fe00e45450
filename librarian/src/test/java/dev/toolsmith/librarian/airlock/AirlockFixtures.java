package dev.toolsmith.librarian.airlock;

import static io.restassured.RestAssured.given;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.Map;

/** A WireMock server the airlock tests publish documents on, and API helpers. */
final class AirlockFixtures {

    static final String ADMIN = "admin-key";
    static final String VIEWER = "viewer-key";
    static final String PLANNER = "planner-key";

    private static WireMockServer server;

    private AirlockFixtures() {
    }

    static synchronized WireMockServer wiremock() {
        if (server == null) {
            server = new WireMockServer(WireMockConfiguration.wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
            server.start();
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        }
        return server;
    }

    static String url(String path) {
        return "http://127.0.0.1:" + wiremock().port() + path;
    }

    static void serve(String path, String body) {
        wiremock().stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(
                com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo(path))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse().withBody(body)));
    }

    /** A small pet API; {@code listDescription} lets a test change one operation. */
    static String petApi(String title, String listDescription) {
        return """
                openapi: 3.0.3
                info: {title: '%s', version: '1.0'}
                servers: [{url: 'https://pets.example.com/v1'}]
                components:
                  securitySchemes:
                    apiKey: {type: apiKey, in: header, name: X-Api-Key}
                security: [{apiKey: []}]
                paths:
                  /pets:
                    get:
                      operationId: listPets
                      summary: List the pets in the shop
                      description: '%s'
                      parameters:
                        - {name: species, in: query, schema: {type: string}}
                      responses:
                        '200':
                          description: pets
                          content:
                            application/json:
                              schema: {type: array, items: {type: object, properties: {name: {type: string}}}}
                              example: [{name: Rex}]
                    post:
                      operationId: adoptPet
                      summary: Register a new pet for adoption
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema: {type: object, required: [name], properties: {name: {type: string}}}
                      responses: {'201': {description: created}}
                  /pets/{id}:
                    delete:
                      operationId: removePet
                      summary: Remove a pet from the shop
                      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                      responses: {'204': {description: gone}}
                """.formatted(title, listDescription);
    }

    static JsonPath createSource(Map<String, Object> body) {
        return given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(body)
                .post("/tools/sources").then().statusCode(201).extract().jsonPath();
    }

    static JsonPath scan(String sourceId) {
        return given().header("X-API-Key", ADMIN).post("/tools/sources/" + sourceId + "/scan")
                .then().statusCode(200).extract().jsonPath();
    }

    static JsonPath pending(String query) {
        return given().header("X-API-Key", VIEWER).get("/tools/pending" + query).then().statusCode(200)
                .extract().jsonPath();
    }

    static String candidateId(String sourceId, String operationKey) {
        JsonPath page = pending("?source=" + sourceId + "&status=ALL&size=200");
        return page.getList("items", Map.class).stream()
                .filter(item -> operationKey.equals(item.get("operationKey")))
                .max((a, b) -> Integer.compare((Integer) a.get("revision"), (Integer) b.get("revision")))
                .map(item -> (String) item.get("id"))
                .orElseThrow(() -> new AssertionError("no candidate " + operationKey + " in " + page.prettify()));
    }
}
