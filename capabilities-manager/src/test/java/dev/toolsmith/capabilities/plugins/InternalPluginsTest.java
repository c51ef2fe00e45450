package dev.toolsmith.capabilities.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The internal plugins as pure functions: their worked examples, schemas and error messages. */
class InternalPluginsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<InternalPlugin> PLUGINS = List.of(new QueryJsonPlugin(), new RenderTextPlugin(),
            new EvaluateExpressionPlugin(), new ConvertUnitsPlugin(), new ShiftDateTimePlugin(), new DateDifferencePlugin());
    private static final Comparator<JsonNode> NUMERIC = (a, b) -> a.isNumber() && b.isNumber()
            ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void everyExampleGivesItsExpectedOutputAndEveryManifestIsCompleteAndReadOnly() {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        for (InternalPlugin plugin : PLUGINS) {
            assertThat(plugin.manifest().risk()).hasToString("READ_ONLY");
            assertThat(plugin.manifest().id()).startsWith("internal.");
            assertThat(plugin.manifest().description()).hasSizeGreaterThan(60);
            assertThat(plugin.examples()).isNotEmpty();
            for (InternalPlugin.Example example : plugin.examples()) {
                assertThat(factory.getSchema(plugin.manifest().inputSchema()).validate(example.inputs()))
                        .as(plugin.manifest().verb() + " " + example.name() + " input").isEmpty();
                ObjectNode out = plugin.execute(example.inputs().deepCopy());
                assertThat(factory.getSchema(plugin.manifest().outputSchema()).validate(out))
                        .as(plugin.manifest().verb() + " " + example.name() + " output").isEmpty();
                assertThat(out.equals(NUMERIC, example.expectedOutputs()))
                        .as(plugin.manifest().verb() + " " + example.name() + ": got " + out).isTrue();
            }
        }
    }

    @Test
    void expressionsAreDecimalExactAndErrorsSayWhere() {
        EvaluateExpressionPlugin calc = new EvaluateExpressionPlugin();
        assertThat(calc.execute(json("{\"expression\": \"2 ^ 3 ^ 2 - -1\"}")).get("result").asText()).isEqualTo("513");
        assertThat(calc.execute(json("{\"expression\": \"max(1, x, 3) % 2 + sqrt(16)\", \"variables\": {\"x\": 7}}"))
                .get("result").decimalValue()).isEqualByComparingTo("5");
        assertThatThrownBy(() -> calc.execute(json("{\"expression\": \"1 / (2 - 2)\"}")))
                .hasMessageContaining("division by zero");
        assertThatThrownBy(() -> calc.execute(json("{\"expression\": \"price * 2\"}")))
                .hasMessageContaining("unknown variable 'price'");
        assertThatThrownBy(() -> calc.execute(json("{\"expression\": \"(1 + 2\"}"))).hasMessageContaining("expected ')'");
        assertThatThrownBy(() -> calc.execute(json("{\"expression\": \"System.exit(1)\"}")))
                .isInstanceOf(PluginFailure.class);
    }

    @Test
    void unitsConvertWithinADimensionOnly() {
        ConvertUnitsPlugin units = new ConvertUnitsPlugin();
        assertThat(units.execute(json("{\"value\": 0, \"from\": \"celsius\", \"to\": \"F\"}")).get("value").decimalValue())
                .isEqualByComparingTo("32");
        assertThat(units.execute(json("{\"value\": 1, \"from\": \"GiB\", \"to\": \"MB\"}")).get("value").decimalValue())
                .isEqualByComparingTo("1073.741824");
        assertThatThrownBy(() -> units.execute(json("{\"value\": 1, \"from\": \"kg\", \"to\": \"km\"}")))
                .hasMessage("cannot convert mass (kg) to length (km)");
        assertThatThrownBy(() -> units.execute(json("{\"value\": 1, \"from\": \"parsec\", \"to\": \"km\"}")))
                .hasMessage("input 'from': unknown unit 'parsec'");
    }

    @Test
    void templatesOnlyReadValues() {
        RenderTextPlugin text = new RenderTextPlugin();
        assertThat(text.execute(json("{\"template\": \"{{a}}-{{b.c}}-{{list}}\", \"values\": {\"a\": 1, \"b\": {\"c\": true},"
                + " \"list\": [1,2]}}")).get("text").asText()).isEqualTo("1-true-[1,2]");
        assertThatThrownBy(() -> text.execute(json("{\"template\": \"Hi {{name}}\", \"values\": {}}")))
                .hasMessageContaining("{{name}}");
        assertThat(text.execute(json("{\"template\": \"Hi {{name}}!\", \"values\": {}, \"allowMissing\": true}"))
                .get("text").asText()).isEqualTo("Hi !");
    }

    @Test
    void templatesRenderSectionsButCallNoCodeReadNoFilesAndEscapeNothing() {
        RenderTextPlugin text = new RenderTextPlugin();
        assertThat(text.execute(json("{\"template\": \"{{#items}}{{name}}={{qty}};{{/items}}{{^none}}empty{{/none}}\","
                + " \"values\": {\"items\": [{\"name\": \"a\", \"qty\": 1.5}, {\"name\": \"b\", \"qty\": 2}]}}"))
                .get("text").asText()).isEqualTo("a=1.5;b=2;empty");
        assertThat(text.execute(json("{\"template\": \"<b>{{x}}</b> & {{{x}}}\", \"values\": {\"x\": \"<i>&'\\\"\"}}"))
                .get("text").asText()).isEqualTo("<b><i>&'\"</b> & <i>&'\"");
        // Java members of the values are not reachable: they read as missing values
        assertThatThrownBy(() -> text.execute(json("{\"template\": \"{{name.class}}\", \"values\": {\"name\": \"Ada\"}}")))
                .hasMessageContaining("{{name.class}}");
        assertThat(text.execute(json("{\"template\": \"[{{list.size}}{{list.class.name}}{{map.isEmpty}}]\","
                + " \"values\": {\"list\": [1], \"map\": {}}, \"allowMissing\": true}")).get("text").asText())
                .isEqualTo("[]");
        assertThatThrownBy(() -> text.execute(json("{\"template\": \"{{> /etc/passwd}}\", \"values\": {}}")))
                .isInstanceOf(PluginFailure.class).hasMessageContaining("partials");
        assertThatThrownBy(() -> text.execute(json("{\"template\": \"{{#a}}open\", \"values\": {\"a\": true}}")))
                .isInstanceOf(PluginFailure.class).hasMessageContaining("not valid Mustache");
        // nested sections multiply: the output cap stops a template from filling the heap
        String many = "[" + "0,".repeat(999) + "0]";
        assertThatThrownBy(() -> text.execute(json("{\"template\": \"{{#l}}{{#l}}{{#l}}xx{{/l}}{{/l}}{{/l}}\","
                + " \"values\": {\"l\": " + many + "}}")))
                .isInstanceOf(PluginFailure.class).hasMessageContaining("longer than " + RenderTextPlugin.MAX_OUTPUT);
    }

    @Test
    void jsonQueriesSelectFilterAndReportMisses() {
        QueryJsonPlugin query = new QueryJsonPlugin();
        ObjectNode out = query.execute(json("{\"document\": {\"users\": [{\"name\": \"a\", \"age\": 40},"
                + " {\"name\": \"b\", \"age\": 20}]}, \"path\": \"$.users[?(@.age > 30)].name\"}"));
        assertThat(out.get("result").toString()).isEqualTo("[\"a\"]");
        assertThatThrownBy(() -> query.execute(json("{\"document\": {}, \"path\": \"$.missing.field\"}")))
                .hasMessageContaining("matched nothing");
        assertThatThrownBy(() -> query.execute(json("{\"document\": {}, \"path\": \"$[?(\"}")))
                .hasMessageContaining("not a valid JSONPath");
    }

    @Test
    void datesShiftAndDifferCalendarAware() {
        ShiftDateTimePlugin shift = new ShiftDateTimePlugin();
        assertThat(shift.execute(json("{\"dateTime\": \"2025-03-31T10:00:00Z\", \"amount\": \"P1M\", \"subtract\": true}"))
                .get("result").asText()).isEqualTo("2025-02-28T10:00Z");
        assertThatThrownBy(() -> shift.execute(json("{\"dateTime\": \"2025-03-31\", \"amount\": \"PT2H\"}")))
                .hasMessageContaining("without a time of day");
        assertThatThrownBy(() -> shift.execute(json("{\"dateTime\": \"31/03/2025\", \"amount\": \"P1D\"}")))
                .hasMessageContaining("input 'dateTime'");
        DateDifferencePlugin diff = new DateDifferencePlugin();
        assertThat(diff.execute(json("{\"from\": \"1990-06-15\", \"to\": \"2025-06-14\", \"unit\": \"years\"}"))
                .get("amount").asInt()).isEqualTo(34);
    }
}
