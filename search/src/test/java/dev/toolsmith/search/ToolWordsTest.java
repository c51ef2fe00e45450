package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A tool's words are split once, when it is indexed; the evidence read from them must be what the same comparison
 * gives from the tool's schema on every query.
 */
class ToolWordsTest {

    private static final ToolManifest CONVERT = TestCatalog.tool("fx.convert", "CONVERT_AMOUNT", "convertAmount",
            "Converts an amount", "fx", "finance", Risk.READ_ONLY,
            "{\"type\":\"object\",\"properties\":{\"amount\":{},\"from\":{},\"to\":{},\"date\":{}},"
                    + "\"required\":[\"amount\",\"from\",\"to\"]}");

    @Test
    void inputFitAndUnfedRequiredReadTheSameFromTheIndexedWordsAsFromTheSchema() {
        ToolWords words = ToolWords.of(CONVERT);
        for (List<String> inputs : List.of(List.of("amount", "source_currency"), List.of("sum", "destination", "from"),
                List.of("webhook"), List.<String>of(), List.of("amount", "from", "to", "date", "extra"))) {
            List<Set<String>> in = InputOverlap.wordsOf(inputs);
            assertThat(InputOverlap.shareFed(in, words.parameters()))
                    .isEqualTo(InputOverlap.share(inputs, InputOverlap.parameterNames(CONVERT.inputSchema())));
            assertThat(InputOverlap.unfedShare(in, words.required()))
                    .isEqualTo(InputOverlap.unfedRequired(inputs, CONVERT.inputSchema()));
        }
        // "source_currency" feeds "from" (source), nothing feeds "to"
        assertThat(InputOverlap.shareFed(InputOverlap.wordsOf(List.of("amount", "source_currency")), words.parameters()))
                .isEqualTo(1.0);
        assertThat(InputOverlap.unfedShare(InputOverlap.wordsOf(List.of("amount", "source_currency")), words.required()))
                .isEqualTo(1.0 / 3);
    }

    @Test
    void nameCoverIsTheShareOfTheNamesStrongWordsTheQuerySays() {
        ToolWords words = ToolWords.of(CONVERT);
        assertThat(words.name()).containsExactlyInAnyOrder("convert", "amount");
        assertThat(words.nameCover(Set.of("convert", "currency"))).isEqualTo(0.5);
        assertThat(words.nameCover(Set.of("weather"))).isZero();
        ToolManifest onlyWeak = TestCatalog.tool("x.id", null, "get_id", "d", "x", "x", Risk.READ_ONLY, "{}");
        assertThat(ToolWords.of(onlyWeak).name()).containsExactly("get");
        ToolManifest weakName = TestCatalog.tool("x.n", null, "name_id", "d", "x", "x", Risk.READ_ONLY, "{}");
        assertThat(ToolWords.of(weakName).nameCover(Set.of("name", "id"))).as("no strong word: no cover").isZero();
    }

    @Test
    void aSchemaWithoutPropertiesOrRequiredGivesNoWordsAndOddRequiredEntriesFeedNothing() {
        ToolManifest bare = TestCatalog.tool("x.bare", "PING", "ping", "d", "x", "x", Risk.READ_ONLY, "null");
        assertThat(ToolWords.of(bare).parameters()).isEmpty();
        assertThat(ToolWords.of(bare).required()).isEmpty();
        assertThat(InputOverlap.unfedShare(InputOverlap.wordsOf(List.of("a")), ToolWords.of(bare).required())).isZero();

        ToolManifest odd = TestCatalog.tool("x.odd", "PING", "ping", "d", "x", "x", Risk.READ_ONLY,
                "{\"properties\":{\"host\":{}},\"required\":[\"host\", 7, {\"a\":1}]}");
        assertThat(InputOverlap.unfedShare(InputOverlap.wordsOf(List.of("host")), ToolWords.of(odd).required()))
                .isEqualTo(InputOverlap.unfedRequired(List.of("host"), odd.inputSchema()))
                .isEqualTo(2.0 / 3);
    }

    @Test
    void aToolWithMoreRequiredParametersThanAreReadIsJudgedOnThoseRead() {
        String names = IntStream.range(0, 70).mapToObj(i -> "\"field" + i + "\"").collect(Collectors.joining(","));
        ToolManifest wide = TestCatalog.tool("x.wide", "PUT", "put", "d", "x", "x", Risk.WRITE_REMOTE,
                "{\"required\":[" + names + "]}");
        assertThat(ToolWords.of(wide).required()).hasSize(64);
        assertThat(InputOverlap.unfedRequired(List.of(), wide.inputSchema())).isEqualTo(1.0);
    }

    @Test
    void aWordSharedByTwoToolsIsOneString() {
        ToolManifest other = TestCatalog.tool("y.convert", "CONVERT_UNITS", "convertUnits", "d", "y", "y",
                Risk.READ_ONLY, "{}");
        String a = ToolWords.of(CONVERT).name().stream().filter("convert"::equals).findFirst().orElseThrow();
        String b = ToolWords.of(other).name().stream().filter("convert"::equals).findFirst().orElseThrow();
        assertThat(a).isSameAs(b);
    }

    @Test
    void hostileNamesAreSplitLikeAnyOtherAndNothingThrows() {
        String longName = "x".repeat(40_000); // Jackson refuses property names over 50,000 characters before this
        ToolManifest hostile = TestCatalog.tool("x.hostile", "GET\u0000IT", "get\u0000Weather\u202e", "d", "x", "x",
                Risk.READ_ONLY, "{\"properties\":{\"city\\u0000name\":{},\"" + longName + "\":{}},"
                        + "\"required\":[\"city\\u0000name\", null, \"\"]}");
        ToolWords words = ToolWords.of(hostile);
        // a NUL or a direction mark inside a name glues the parts around it and is dropped from the word
        assertThat(words.name()).containsExactlyInAnyOrder("getit", "getweather");
        assertThat(words.parameters()).hasSize(2);
        // the NUL splits nothing away: the name still fits the input it was meant for
        assertThat(InputOverlap.shareFed(InputOverlap.wordsOf(List.of("cityName")), words.parameters()))
                .isEqualTo(InputOverlap.share(List.of("cityName"), InputOverlap.parameterNames(hostile.inputSchema())));
        assertThat(InputOverlap.unfedShare(InputOverlap.wordsOf(List.of("city")), words.required()))
                .isEqualTo(InputOverlap.unfedRequired(List.of("city"), hostile.inputSchema()));
    }
}
