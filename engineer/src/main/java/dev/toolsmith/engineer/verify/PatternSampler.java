package dev.toolsmith.engineer.verify;

import com.github.curiousoddman.rgxgen.RgxGen;
import com.github.curiousoddman.rgxgen.config.RgxGenOption;
import com.github.curiousoddman.rgxgen.config.RgxGenProperties;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Writes one string matching a spec's {@code pattern}, with RgxGen: the same variant gives the same string
 * (a seeded generator), other variants other strings. Unbounded repetitions ({@code * +}) repeat at most
 * {@value #UNBOUNDED_REPEAT} times and no sample is longer than {@value #MAX_LENGTH} characters. The result
 * is checked against the pattern as JSON Schema reads it (found anywhere in the string); for anything RgxGen
 * cannot produce (lookarounds, back references it gets wrong) or a pattern that asks for longer strings, it
 * returns null and the caller needs an example from the spec.
 */
final class PatternSampler {

    static final int MAX_LENGTH = 256;
    private static final int UNBOUNDED_REPEAT = 3;
    private static final int ATTEMPTS = 8;
    /** A counted repetition above the length bound is refused before anything is generated. */
    private static final Pattern COUNT = Pattern.compile("\\{(\\d+)");

    private PatternSampler() {
    }

    static String sample(String pattern, int variant) {
        Pattern compiled;
        try {
            compiled = Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            return null;
        }
        if (asksForTooMuch(pattern)) {
            return null;
        }
        RgxGenProperties properties = new RgxGenProperties();
        RgxGenOption.INFINITE_PATTERN_REPETITION.setInProperties(properties, UNBOUNDED_REPEAT);
        try {
            RgxGen generator = RgxGen.parse(properties, pattern);
            Random random = new Random(variant);
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                String text = generator.generate(random);
                if (text.length() <= MAX_LENGTH && compiled.matcher(text).find()) {
                    return text;
                }
            }
            return null;
        } catch (RuntimeException e) { // RgxGen refuses constructs it cannot generate
            return null;
        }
    }

    private static boolean asksForTooMuch(String pattern) {
        Matcher count = COUNT.matcher(pattern);
        while (count.find()) {
            String digits = count.group(1);
            if (digits.length() > 6 || Integer.parseInt(digits) > MAX_LENGTH) {
                return true;
            }
        }
        return false;
    }
}
