package dev.toolsmith.engineer.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.sandbox.SchemaChecker;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Generated values satisfy the schema they were generated from. */
class SchemaValueGeneratorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final SchemaChecker checker = new SchemaChecker(true);

    @ParameterizedTest
    @ValueSource(strings = {
            "{'type':'string','format':'date-time'}",
            "{'type':'string','format':'email'}",
            "{'type':'string','format':'uuid'}",
            "{'type':'string','pattern':'^[A-Z]{3}-\\\\d{4}$'}",
            "{'type':'string','pattern':'^(foo|bar)_[a-z0-9]+$','maxLength':12}",
            "{'type':'string','minLength':12,'maxLength':15}",
            "{'type':'integer','minimum':10,'maximum':12,'multipleOf':3}",
            "{'type':'number','exclusiveMinimum':0,'exclusiveMaximum':1}",
            "{'type':'string','enum':['','mini','full']}",
            "{'type':'array','items':{'type':'string','enum':['a','b','c']},'minItems':2,'uniqueItems':true}",
            "{'type':'object','required':['id','tags'],'properties':{'id':{'type':'integer','minimum':1},"
                    + "'tags':{'type':'array','items':{'type':'string'}},'meta':{'type':['object','null']}}}",
            "{'allOf':[{'type':'object','required':['a'],'properties':{'a':{'type':'string'}}},"
                    + "{'required':['b'],'properties':{'b':{'type':'boolean'}}}]}",
            "{'oneOf':[{'type':'null'},{'type':'object','required':['x'],'properties':{'x':{'const':7}}}]}",
            "{'type':'string','default':'latest','examples':['v1']}"})
    void generatedValuesSatisfyTheirSchema(String schemaText) throws Exception {
        JsonNode schema = JSON.readTree(schemaText.replace('\'', '"'));
        for (SchemaValueGenerator generator : new SchemaValueGenerator[] {new SchemaValueGenerator(false, true),
                new SchemaValueGenerator(true, false)}) {
            JsonNode value = generator.generate(schema);
            assertThat(checker.firstProblem(schema, value)).as(schemaText + " -> " + value).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"^\\d{5}(-\\d{4})?$", "^[a-f0-9]{40}$", "^[^@\\s]+@[^@\\s]+$", "^v[0-9]+\\.[0-9]+$"})
    void simplePatternsAreSampled(String pattern) {
        String sample = PatternSampler.sample(pattern, 0);
        assertThat(sample).isNotNull();
        assertThat(java.util.regex.Pattern.compile(pattern).matcher(sample).find()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$", "^(EUR|USD|GBP)$", "^\\w+(\\.\\w+)*@\\w+\\.(com|org)$",
            "^[^\\s]{3,}$", "^[A-Z][a-z]+ \\d{1,3}$"})
    void patternsAreSampledTheSameForAVariantAndDifferentlyAcrossVariants(String pattern) {
        java.util.regex.Pattern compiled = java.util.regex.Pattern.compile(pattern);
        java.util.Set<String> samples = new java.util.HashSet<>();
        for (int variant = 0; variant < 5; variant++) {
            String sample = PatternSampler.sample(pattern, variant);
            assertThat(sample).as(pattern + " variant " + variant).isNotNull();
            assertThat(compiled.matcher(sample).find()).as(pattern + " -> " + sample).isTrue();
            assertThat(PatternSampler.sample(pattern, variant)).isEqualTo(sample);
            samples.add(sample);
        }
        if (!pattern.contains("EUR")) {
            assertThat(samples).as(pattern).hasSizeGreaterThan(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"^a{100000}$", "^(?=x)y$", "^[a-z]{300}$", "(unclosed"})
    void patternsAskingTooMuchOrUnsampleableGiveNull(String pattern) {
        assertThat(PatternSampler.sample(pattern, 0)).as(pattern).isNull();
    }

    @org.junit.jupiter.api.Test
    void unboundedRepetitionsStayWithinTheLengthBound() {
        String sample = PatternSampler.sample("^(ab+c*)+[0-9]*$", 3);
        assertThat(sample).isNotNull().matches("^(ab+c*)+[0-9]*$");
        assertThat(sample.length()).isLessThanOrEqualTo(PatternSampler.MAX_LENGTH);
    }
}
