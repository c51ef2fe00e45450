package dev.toolsmith.sandbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.toolsmith.sandbox.Tools.base;
import static dev.toolsmith.sandbox.Tools.binding;
import static dev.toolsmith.sandbox.Tools.inputs;
import static dev.toolsmith.sandbox.Tools.json;
import static dev.toolsmith.sandbox.Tools.param;
import static dev.toolsmith.sandbox.Tools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every OpenAPI serialisation style reaches the server exactly as the specification's examples show. */
class SerialisationStylesTest {

    private static final String PRIMITIVE = "{'color':'blue'}";
    private static final String ARRAY = "{'color':['blue','black','brown']}";
    private static final String OBJECT = "{'color':{'R':100,'G':200,'B':150}}";

    static WireMockServer server;
    final WrappedToolExecutor executor = new WrappedToolExecutor();

    @BeforeAll
    static void start() {
        server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @BeforeEach
    void reset() {
        server.resetAll();
        server.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody("{\"ok\":true}")));
    }

    static Stream<Arguments> pathStyles() {
        return Stream.of(
                Arguments.of("simple", false, PRIMITIVE, "/items/blue"),
                Arguments.of("simple", false, ARRAY, "/items/blue,black,brown"),
                Arguments.of("simple", false, OBJECT, "/items/R,100,G,200,B,150"),
                Arguments.of("simple", true, OBJECT, "/items/R=100,G=200,B=150"),
                Arguments.of("label", false, PRIMITIVE, "/items/.blue"),
                Arguments.of("label", false, ARRAY, "/items/.blue,black,brown"),
                Arguments.of("label", true, ARRAY, "/items/.blue.black.brown"),
                Arguments.of("label", false, OBJECT, "/items/.R,100,G,200,B,150"),
                Arguments.of("label", true, OBJECT, "/items/.R=100.G=200.B=150"),
                Arguments.of("matrix", false, PRIMITIVE, "/items/;color=blue"),
                Arguments.of("matrix", false, ARRAY, "/items/;color=blue,black,brown"),
                Arguments.of("matrix", true, ARRAY, "/items/;color=blue;color=black;color=brown"),
                Arguments.of("matrix", false, OBJECT, "/items/;color=R,100,G,200,B,150"),
                Arguments.of("matrix", true, OBJECT, "/items/;R=100;G=200;B=150"),
                Arguments.of("simple", false, "{'color':'a b/c'}", "/items/a%20b%2Fc"));
    }

    @ParameterizedTest(name = "path {0} explode={1} {2}")
    @MethodSource("pathStyles")
    void pathParameters(String style, boolean explode, String input, String expectedPath) {
        ParameterBinding color = new ParameterBinding("color", null, ParameterLocation.PATH, style, explode, true);
        ExecutionOutcome outcome = run("/items/{color}", List.of(color), BodyEncoding.NONE, input);

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        assertThat(onlyRequest().getUrl()).isEqualTo(expectedPath);
    }

    static Stream<Arguments> queryStyles() {
        return Stream.of(
                Arguments.of("form", null, PRIMITIVE, "color=blue"),
                Arguments.of("form", true, ARRAY, "color=blue&color=black&color=brown"),
                Arguments.of("form", false, ARRAY, "color=blue,black,brown"),
                Arguments.of("form", true, OBJECT, "R=100&G=200&B=150"),
                Arguments.of("form", false, OBJECT, "color=R,100,G,200,B,150"),
                Arguments.of("spaceDelimited", false, ARRAY, "color=blue%20black%20brown"),
                Arguments.of("pipeDelimited", false, ARRAY, "color=blue%7Cblack%7Cbrown"),
                Arguments.of("deepObject", true, OBJECT, "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"),
                Arguments.of(null, null, "{'color':'x&y=z é'}", "color=x%26y%3Dz%20%C3%A9"));
    }

    @ParameterizedTest(name = "query {0} explode={1} {2}")
    @MethodSource("queryStyles")
    void queryParameters(String style, Boolean explode, String input, String expectedQuery) {
        ExecutionOutcome outcome = run("/items", List.of(param("color", ParameterLocation.QUERY, style, explode)),
                BodyEncoding.NONE, input);

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        assertThat(onlyRequest().getUrl()).isEqualTo("/items?" + expectedQuery);
        assertThat(outcome.request().url()).endsWith("/items?" + expectedQuery);
    }

    @Test
    void theServerDecodesADeepObjectAndADelimitedArrayIntoTheirValues() {
        run("/items", List.of(param("color", ParameterLocation.QUERY, "deepObject", true),
                param("sizes", ParameterLocation.QUERY, "pipeDelimited", false)), BodyEncoding.NONE,
                "{'color':{'R':100},'sizes':['S','M']}");

        LoggedRequest request = onlyRequest();
        assertThat(request.queryParameter("color[R]").firstValue()).isEqualTo("100");
        assertThat(request.queryParameter("sizes").firstValue()).isEqualTo("S|M");
    }

    @Test
    void headersAndCookiesUseSimpleAndFormStyles() {
        ExecutionOutcome outcome = run("/items", List.of(
                param("X-Colors", ParameterLocation.HEADER, "simple", false),
                param("X-Rgb", ParameterLocation.HEADER, "simple", true),
                param("session", ParameterLocation.COOKIE, "form", false),
                param("flavours", ParameterLocation.COOKIE, "form", false)), BodyEncoding.NONE,
                "{'X-Colors':['blue','black'],'X-Rgb':{'R':100,'G':200},'session':'abc 1','flavours':['a','b']}");

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        LoggedRequest request = onlyRequest();
        assertThat(request.getHeader("X-Colors")).isEqualTo("blue,black");
        assertThat(request.getHeader("X-Rgb")).isEqualTo("R=100,G=200");
        assertThat(request.getHeader("Cookie")).isEqualTo("session=abc%201; flavours=a,b");
    }

    @Test
    void bodyPropertiesBecomeOneJsonObjectBesideAPathParameter() {
        ExecutionOutcome outcome = run("/pets/{id}", List.of(
                new ParameterBinding("id", null, ParameterLocation.PATH, null, null, true),
                new ParameterBinding("petName", "name", ParameterLocation.BODY, null, null, true),
                param("tags", ParameterLocation.BODY, null, null)), BodyEncoding.JSON,
                "{'id':7,'petName':'Rex','tags':['good','dog']}");

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        LoggedRequest request = onlyRequest();
        assertThat(request.getUrl()).isEqualTo("/pets/7");
        assertThat(request.getHeader("Content-Type")).isEqualTo("application/json");
        assertThat(json(request.getBodyAsString())).isEqualTo(json("{'name':'Rex','tags':['good','dog']}"));
        assertThat(outcome.request().body()).isEqualTo(request.getBodyAsString());
    }

    @Test
    void aWholeBodyInputIsSentAsTheBody() {
        ExecutionOutcome outcome = run("/batch", List.of(param("items", ParameterLocation.BODY_WHOLE, null, null)),
                BodyEncoding.JSON, "{'items':[{'a':1},{'a':2}]}");

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        assertThat(json(onlyRequest().getBodyAsString())).isEqualTo(json("[{'a':1},{'a':2}]"));
    }

    @Test
    void aFormBodyIsUrlEncodedWithRepeatedArraysAndJsonObjects() {
        ExecutionOutcome outcome = run("/signup", List.of(param("name", ParameterLocation.BODY, null, null),
                param("tags", ParameterLocation.BODY, null, null), param("meta", ParameterLocation.BODY, null, null)),
                BodyEncoding.FORM, "{'name':'Jane Doe','tags':['a','b'],'meta':{'k':1}}");

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        LoggedRequest request = onlyRequest();
        assertThat(request.getHeader("Content-Type")).startsWith("application/x-www-form-urlencoded");
        assertThat(request.getBodyAsString()).isEqualTo("name=Jane+Doe&tags=a&tags=b&meta=%7B%22k%22%3A1%7D");
        assertThat(request.formParameters().get("name").firstValue()).isEqualTo("Jane Doe");
    }

    @Test
    void anOptionalInputLeftOutIsNotSent() {
        ExecutionOutcome outcome = run("/items", List.of(param("q", ParameterLocation.QUERY, null, null),
                param("limit", ParameterLocation.QUERY, null, null)), BodyEncoding.NONE, "{'q':'x'}");

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        assertThat(onlyRequest().getUrl()).isEqualTo("/items?q=x");
    }

    @Test
    void aFragmentInTheTemplateIsNeverSentAndAFixedQueryIsExtended() {
        ExecutionOutcome fragment = run("/#X-Amz-Target=Service.Op", List.of(param("q", ParameterLocation.QUERY, null, null)),
                BodyEncoding.NONE, "{'q':'x'}");
        assertThat(fragment.succeeded()).as(fragment.reason()).isTrue();
        assertThat(onlyRequest().getUrl()).isEqualTo("/?q=x");

        server.resetRequests();
        ExecutionOutcome fixed = run("/?Action=List", List.of(param("q", ParameterLocation.QUERY, null, null)),
                BodyEncoding.NONE, "{'q':'x'}");
        assertThat(fixed.succeeded()).as(fixed.reason()).isTrue();
        assertThat(onlyRequest().getUrl()).isEqualTo("/?Action=List&q=x");
    }

    private ExecutionOutcome run(String path, List<ParameterBinding> parameters, BodyEncoding body, String input) {
        String method = body == BodyEncoding.NONE ? "GET" : "POST";
        ToolManifest tool = tool(binding(method, base(server), path, parameters, body, AuthBinding.none(), 5_000, 0),
                null, null);
        return executor.execute(tool, inputs(input), SecretResolver.none(), ExecutionLimits.localDevelopment());
    }

    private LoggedRequest onlyRequest() {
        List<LoggedRequest> requests = server.findAll(anyRequestedFor(anyUrl()));
        assertThat(requests).hasSize(1);
        return requests.get(0);
    }
}
