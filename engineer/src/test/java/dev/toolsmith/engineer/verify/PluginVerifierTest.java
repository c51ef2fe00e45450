package dev.toolsmith.engineer.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.sandbox.WrappedToolExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The generated suite passes for a correct plugin and the verifier reports what differs when it does not. */
class PluginVerifierTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static PluginVerifier verifier;
    final SuiteGenerator suites = new SuiteGenerator();

    @BeforeAll
    static void start() {
        verifier = new PluginVerifier(new WrappedToolExecutor(JSON), JSON);
    }

    @AfterAll
    static void stop() {
        verifier.close();
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** GET /v1/rates/{base}?symbols=a,b&amount=..., header X-Trace, API key in a header; a probe on /v1/status. */
    static ToolManifest ratesPlugin() {
        JsonNode input = json("{'type':'object','required':['base','symbols'],'properties':{"
                + "'base':{'type':'string','pattern':'^[A-Z]{3}$','examples':['EUR']},"
                + "'symbols':{'type':'array','items':{'type':'string','enum':['USD','GBP','JPY']},'minItems':1},"
                + "'amount':{'type':'number','minimum':0,'default':1},"
                + "'X-Trace':{'type':'string','format':'uuid'}}}");
        JsonNode output = json("{'type':'object','required':['base','rates'],'properties':{'base':{'type':'string'},"
                + "'rates':{'type':'object','additionalProperties':{'type':'number'}}}}");
        List<ParameterBinding> parameters = List.of(
                new ParameterBinding("base", "base", ParameterLocation.PATH, "simple", false, true),
                new ParameterBinding("symbols", "symbols", ParameterLocation.QUERY, "form", false, true),
                new ParameterBinding("amount", "amount", ParameterLocation.QUERY, "form", true, false),
                new ParameterBinding("X-Trace", "X-Trace", ParameterLocation.HEADER, "simple", false, false));
        AuthBinding auth = new AuthBinding(AuthBinding.Scheme.API_KEY_HEADER, "X-Api-Key", "fx_key");
        HttpBinding binding = new HttpBinding("GET", "https://api.fx.example/v1", "/rates/{base}", parameters,
                BodyEncoding.NONE, auth, 5_000, 0);
        HttpBinding probe = new HttpBinding("GET", "https://api.fx.example/v1", "/status", List.of(), BodyEncoding.NONE,
                auth, 5_000, 0);
        return new ToolManifest("fx.example:get_rates", "GET_RATES", "get rates", "exchange rates",
                ToolSourceType.OPENAPI, "fx.example", "finance", List.of(), input, output, Risk.READ_ONLY, binding,
                new HealthProbe(probe, Map.of(), 60, null), 1, null);
    }

    static JsonNode ratesOperation() {
        return json("{'responses':{'200':{'content':{'application/json':{'example':"
                + "{'base':'EUR','rates':{'USD':1.08,'GBP':0.85}}}}}}}");
    }

    @Test
    void aCorrectPluginPassesEveryGeneratedCase() {
        VerificationSuite suite = suites.generate(ratesPlugin(), ratesOperation(), "verify-secret-1");

        VerificationReport report = verifier.verify(ratesPlugin(), suite);

        assertThat(report.cases()).extracting(CaseResult::kind)
                .contains("EXAMPLE", "REQUIRED_INPUTS", "ALL_INPUTS", "INVALID_INPUT", "HEALTH_PROBE");
        assertThat(report.cases()).allSatisfy(c -> assertThat(c.passed()).as(c.name() + ": " + c.detail()).isTrue());
        assertThat(report.passed()).isTrue();
        CaseResult invalid = report.cases().stream().filter(c -> c.kind().equals("INVALID_INPUT")).findFirst().orElseThrow();
        assertThat(invalid.detail()).startsWith("refused before sending: invalid input /");
        VerificationCase example = suite.cases().get(0);
        assertThat(example.inputs().get("base").asText()).isEqualTo("EUR");
        assertThat(example.response().origin()).isEqualTo("the spec's response example");
        assertThat(example.request().headers()).containsEntry("X-Api-Key", "verify-secret-1");
        assertThat(example.request().query()).containsKey("symbols");
    }

    @Test
    void aRequestThatDiffersFromTheExpectedShapeFailsWithTheDifference() {
        VerificationSuite suite = suites.generate(ratesPlugin(), ratesOperation(), "verify-secret-1");
        List<VerificationCase> tampered = new ArrayList<>();
        for (VerificationCase c : suite.cases()) {
            if (c.kind() == CaseKind.REQUIRED_INPUTS) {
                ExpectedRequest r = c.request();
                c = new VerificationCase(c.name(), c.kind(), c.inputs(), new ExpectedRequest(r.method(),
                        List.of("rates", "USD"), Map.of("symbols", List.of("nope")), r.headers(), r.cookies(), null, null),
                        c.response(), null, null);
            }
            tampered.add(c);
        }
        VerificationReport report = verifier.verify(ratesPlugin(),
                new VerificationSuite(suite.toolId(), 1, tampered, List.of(), suite.verificationSecret()));

        assertThat(report.passed()).isFalse();
        CaseResult failed = report.cases().stream().filter(c -> !c.passed()).findFirst().orElseThrow();
        assertThat(failed.kind()).isEqualTo("REQUIRED_INPUTS");
        assertThat(failed.detail()).contains("path /rates/", "expected /rates/USD", "query {", "expected {symbols=[nope]}");
    }

    @Test
    void aResponseThatBreaksTheOutputSchemaFailsTheCase() {
        VerificationSuite suite = suites.generate(ratesPlugin(), json("{'responses':{'200':{'content':"
                + "{'application/json':{'example':{'base':'EUR','rates':{'USD':'high'}}}}}}}"), "verify-secret-1");
        List<VerificationCase> cases = new ArrayList<>();
        for (VerificationCase c : suite.cases()) {
            cases.add(c.kind() == CaseKind.REQUIRED_INPUTS ? new VerificationCase(c.name(), c.kind(), c.inputs(),
                    c.request(), new StubResponse(200, json("{'base':'EUR','rates':{'USD':'high'}}"), "test"), null, null)
                    : c);
        }
        assertThat(suite.notes()).anyMatch(n -> n.contains("response example breaks its own output schema"));

        VerificationReport report = verifier.verify(ratesPlugin(),
                new VerificationSuite(suite.toolId(), 1, cases, List.of(), suite.verificationSecret()));

        assertThat(report.passed()).isFalse();
        assertThat(report.cases()).anySatisfy(c -> assertThat(c.detail())
                .contains("INVALID_OUTPUT response does not match the output schema at /rates/USD"));
    }
}
