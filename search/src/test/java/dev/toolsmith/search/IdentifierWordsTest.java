package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IdentifierWordsTest {

    @ParameterizedTest
    @CsvSource({
        "convertAmount, convert Amount",
        "CONVERT_CURRENCY, CONVERT CURRENCY",
        "convert-currency, convert currency",
        "getV2Users, get V 2 Users",
        "ipv4Address, ipv 4 Address",
        "getHTTPResponse, get HTTP Response",
        "/pets/photos, pets photos",
        "plain, plain"
    })
    void splitsEveryIdentifierStyleAndDigits(String identifier, String words) {
        assertThat(IdentifierWords.split(identifier, false)).isEqualTo(words);
    }

    @Test
    void keepsTheWholeIdentifierAfterItsPartsWhenAsked() {
        assertThat(IdentifierWords.split("please convertAmount now", true))
                .isEqualTo("please convert Amount convertamount now");
        assertThat(IdentifierWords.split("sample_source", true)).isEqualTo("sample source samplesource");
        assertThat(IdentifierWords.split("word", true)).isEqualTo("word");
    }

    @Test
    void leavesOtherPunctuationToTheAnalyser() {
        assertThat(IdentifierWords.split("today's rate (EUR)", false)).isEqualTo("today's rate (EUR)");
        assertThat(IdentifierWords.split(null, true)).isEmpty();
        assertThat(IdentifierWords.split("", true)).isEmpty();
    }
}
