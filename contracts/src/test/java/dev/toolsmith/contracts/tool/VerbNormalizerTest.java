package dev.toolsmith.contracts.tool;

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
        "'  spaced   out  ', spaced out",
        "weather/forecast:daily, weather forecast daily"
    })
    void normalisesIdentifiersIntoWords(String verb, String expected) {
        assertThat(VerbNormalizer.normalize(verb)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "ConvertÜberweisung, convert überweisung",
        "überWeisungPrüfen, über weisung prüfen",
        "ÉTATCivil, état civil",
        "STRASSEÄndern, strasse ändern",
        "überweisen, überweisen",
        "ΜετατροπήΝομίσματος, μετατροπή νομίσματος",
        "转换货币, 转换货币",
        "ǅemalSend, ǆemal send"
    })
    void splitsAtUnicodeCaseChangesNotOnlyAscii(String verb, String expected) {
        assertThat(VerbNormalizer.normalize(verb)).isEqualTo(expected);
    }

    @Test
    void splitsLettersOutsideTheBasicPlane() {
        // Deseret capital and small letters are supplementary code points: a char-by-char loop sees surrogates
        String verb = "send\uD801\uDC00\uD801\uDC28"; // "send" + DESERET CAPITAL LONG I + DESERET SMALL LONG I
        assertThat(VerbNormalizer.normalize(verb)).isEqualTo("send \uD801\uDC28\uD801\uDC28");
    }

    @ParameterizedTest
    @CsvSource({
        "fetchV2Data, fetch v2 data",
        "base64Encode, base64 encode",
        "HTTP2Server, http2 server",
        "utf8ToUtf16, utf8 to utf16",
        "sha256, sha256",
        "ISO8601Date, iso8601 date"
    })
    void keepsDigitsWithTheLettersBeforeThem(String verb, String expected) {
        assertThat(VerbNormalizer.normalize(verb)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "getURLForID, get url for id",
        "parseXMLHttpRequest, parse xml http request",
        "IOError, io error",
        "A, a",
        "AB, ab",
        "aB, a b"
    })
    void endsAcronymsBeforeTheNextWord(String verb, String expected) {
        assertThat(VerbNormalizer.normalize(verb)).isEqualTo(expected);
    }

    @Test
    void nullBlankAndSeparatorsOnlyBecomeEmpty() {
        assertThat(VerbNormalizer.normalize(null)).isEmpty();
        assertThat(VerbNormalizer.normalize("")).isEmpty();
        assertThat(VerbNormalizer.normalize("   ")).isEmpty();
        assertThat(VerbNormalizer.normalize("___")).isEmpty();
        assertThat(VerbNormalizer.normalize("\u0000")).isEmpty();
        assertThat(VerbNormalizer.normalize("\u00A0\u2003")).isEmpty();
    }

    @Test
    void controlCharactersSeparateWordsAndNeverReachAKey() {
        // NUL cannot be stored in a PostgreSQL text column; a tab or a no-break space is no part of a word
        assertThat(VerbNormalizer.normalize("convert\u0000Currency")).isEqualTo("convert currency");
        assertThat(VerbNormalizer.normalize("convert\tcurrency\u00A0now\u001F")).isEqualTo("convert currency now");
        assertThat(VerbNormalizer.normalize("\u0000CONVERT_CURRENCY\u0000")).isEqualTo("convert currency");
    }

    @Test
    void normalisingTwiceChangesNothing() {
        for (String verb : new String[] {"ConvertÜberweisung", "getHTTPResponse", "fetchV2Data", "CONVERT_CURRENCY"}) {
            String once = VerbNormalizer.normalize(verb);
            assertThat(VerbNormalizer.normalize(once)).isEqualTo(once);
        }
    }

    @Test
    void splitsIdentifiersInsideFreeTextKeepingOtherWords() {
        assertThat(VerbNormalizer.splitIdentifiers("please CONVERT_CURRENCY for me"))
                .isEqualTo("please CONVERT CURRENCY for me");
        assertThat(VerbNormalizer.splitIdentifiers("Ünïcode wörds stay")).isEqualTo("Ünïcode wörds stay");
    }
}
