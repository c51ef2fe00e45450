package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VerbNormalizerTest {

    @ParameterizedTest
    @CsvSource({
        "CONVERT_CURRENCY, convert currency",
        "convertCurrency, convert currency",
        "ConvertCurrency, convert currency",
        "convert-currency, convert currency",
        "convert.currency, convert currency",
        "convert_currency, convert currency",
        "getHTTPResponse, get http response",
        "HTTPServer, http server",
        "reserve__table--now, reserve table now",
        "fetchV2Data, fetch v2 data",
        "'  spaced   out  ', spaced out",
        "weather/forecast:daily, weather forecast daily"
    })
    void normalisesIdentifiersIntoWords(String verb, String expected) {
        assertThat(VerbNormalizer.normalize(verb)).isEqualTo(expected);
    }

    @Test
    void nullAndBlankBecomeEmpty() {
        assertThat(VerbNormalizer.normalize(null)).isEmpty();
        assertThat(VerbNormalizer.normalize("   ")).isEmpty();
        assertThat(VerbNormalizer.normalize("___")).isEmpty();
    }

    @Test
    void splitsIdentifiersInsideFreeTextKeepingOtherWords() {
        assertThat(VerbNormalizer.splitIdentifiers("please CONVERT_CURRENCY for me"))
                .isEqualTo("please CONVERT CURRENCY for me");
        assertThat(VerbNormalizer.splitIdentifiers("Ünïcode wörds stay")).isEqualTo("Ünïcode wörds stay");
    }
}
