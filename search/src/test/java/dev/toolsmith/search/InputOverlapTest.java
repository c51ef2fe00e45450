package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputOverlapTest {

    @Test
    void foldsCaseStylesAbbreviationsAndPlurals() {
        assertThat(InputOverlap.fits("pet_identifier", "petId")).isTrue();
        assertThat(InputOverlap.fits("userNames", "user-name")).isTrue();
        assertThat(InputOverlap.fits("source_lang", "sourceLanguage")).isTrue();
        assertThat(InputOverlap.fits("repo", "repository")).isTrue();
    }

    @Test
    void aSharedGenericWordAloneIsNoFit() {
        assertThat(InputOverlap.fits("pet_id", "order_id")).isFalse();
        assertThat(InputOverlap.fits("name", "file_name")).isFalse();
        assertThat(InputOverlap.fits("city", "country")).isFalse();
        assertThat(InputOverlap.fits("", "x")).isFalse();
    }

    @Test
    void shareCountsDistinctParametersOnce() throws Exception {
        var schema = new ObjectMapper().readTree(
                "{\"type\":\"object\",\"properties\":{\"from\":{},\"to\":{},\"amount\":{}}}");
        List<String> params = InputOverlap.parameterNames(schema);
        assertThat(params).containsExactly("from", "to", "amount");
        assertThat(InputOverlap.share(List.of("amount", "source", "destination"), params)).isEqualTo(1.0);
        assertThat(InputOverlap.share(List.of("amount", "sum"), params)).isEqualTo(0.5);
        assertThat(InputOverlap.share(List.of("webhook"), params)).isEqualTo(0.0);
        assertThat(InputOverlap.share(List.of(), params)).isEqualTo(0.0);
        assertThat(InputOverlap.parameterNames(null)).isEmpty();
    }

    @Test
    void unfedRequiredCountsRequiredParametersNoInputFits() throws Exception {
        var schema = new ObjectMapper().readTree("{\"type\":\"object\",\"required\":[\"from\",\"to\",\"amount\"],"
                + "\"properties\":{\"from\":{},\"to\":{},\"amount\":{},\"date\":{}}}");
        assertThat(InputOverlap.unfedRequired(List.of("amount", "source", "destination"), schema)).isEqualTo(0.0);
        assertThat(InputOverlap.unfedRequired(List.of("sum"), schema)).isEqualTo(2.0 / 3);
        assertThat(InputOverlap.unfedRequired(List.of(), schema)).isEqualTo(1.0);
        var optionalOnly = new ObjectMapper().readTree("{\"type\":\"object\",\"properties\":{\"q\":{}}}");
        assertThat(InputOverlap.unfedRequired(List.of(), optionalOnly)).isEqualTo(0.0);
        assertThat(InputOverlap.unfedRequired(List.of("x"), null)).isEqualTo(0.0);
    }
}
