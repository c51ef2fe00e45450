package dev.toolsmith.engineer.verify;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Writes one string matching a simple regular expression: literals, escapes ({@code \d \w \s}), classes
 * with ranges, {@code .}, groups with alternatives (the first is taken) and the usual quantifiers (the
 * minimum count, at least one for {@code +}). The result is checked against the pattern; for anything this
 * cannot handle it returns null and the caller needs an example from the spec.
 */
final class PatternSampler {

    private final String pattern;
    private final int variant;
    private int pos;

    private PatternSampler(String pattern, int variant) {
        this.pattern = pattern;
        this.variant = variant;
    }

    static String sample(String pattern, int variant) {
        try {
            Pattern compiled = Pattern.compile(pattern);
            String text = new PatternSampler(pattern, variant).sequence();
            return text != null && compiled.matcher(text).find() ? text : null;
        } catch (PatternSyntaxException | IllegalStateException | StringIndexOutOfBoundsException e) {
            return null;
        }
    }

    /** A sequence up to the end, a ')' or a '|'. */
    private String sequence() {
        StringBuilder out = new StringBuilder();
        while (pos < pattern.length()) {
            char c = pattern.charAt(pos);
            if (c == ')' || c == '|') {
                break;
            }
            if (c == '^' || c == '$') {
                pos++;
                continue;
            }
            String atom = atom();
            int[] counts = quantifier();
            int times = counts[0];
            for (int i = 0; i < times; i++) {
                out.append(atom);
            }
        }
        return out.toString();
    }

    private String atom() {
        char c = pattern.charAt(pos++);
        switch (c) {
            case '\\' -> {
                char e = pattern.charAt(pos++);
                return switch (e) {
                    case 'd' -> String.valueOf((char) ('1' + variant % 9));
                    case 'w' -> "a";
                    case 's' -> " ";
                    case 'D', 'S' -> "a";
                    case 'W' -> "-";
                    case 'n' -> "\n";
                    case 't' -> "\t";
                    case 'b', 'B', 'A', 'z', 'Z' -> "";
                    default -> String.valueOf(e);
                };
            }
            case '.' -> {
                return "a";
            }
            case '[' -> {
                return charClass();
            }
            case '(' -> {
                if (pattern.startsWith("?:", pos)) {
                    pos += 2;
                } else if (pattern.startsWith("?<", pos) && !pattern.startsWith("?<=", pos) && !pattern.startsWith("?<!", pos)) {
                    pos = pattern.indexOf('>', pos) + 1;
                } else if (pattern.startsWith("?", pos)) {
                    throw new IllegalStateException("lookaround is not sampled");
                }
                String first = sequence();
                while (pos < pattern.length() && pattern.charAt(pos) == '|') {
                    pos++;
                    sequence(); // alternatives after the first are skipped
                }
                if (pos >= pattern.length() || pattern.charAt(pos) != ')') {
                    throw new IllegalStateException("unbalanced group");
                }
                pos++;
                return first;
            }
            default -> {
                return String.valueOf(c);
            }
        }
    }

    private String charClass() {
        boolean negated = pos < pattern.length() && pattern.charAt(pos) == '^';
        if (negated) {
            pos++;
        }
        Character first = null;
        StringBuilder members = new StringBuilder();
        boolean start = true;
        while (pos < pattern.length() && (pattern.charAt(pos) != ']' || start)) {
            start = false;
            char c = pattern.charAt(pos++);
            if (c == '\\') {
                char e = pattern.charAt(pos++);
                char chosen = switch (e) {
                    case 'd' -> '1';
                    case 'w' -> 'a';
                    case 's' -> ' ';
                    default -> e;
                };
                members.append(chosen);
                if (first == null) {
                    first = chosen;
                }
                continue;
            }
            if (pos + 1 < pattern.length() && pattern.charAt(pos) == '-' && pattern.charAt(pos + 1) != ']') {
                char end = pattern.charAt(pos + 1);
                pos += 2;
                char chosen = (char) Math.min(end, c + (variant % Math.max(1, end - c + 1)));
                members.append(c).append('-').append(end);
                if (first == null) {
                    first = chosen;
                }
                continue;
            }
            members.append(c);
            if (first == null) {
                first = c;
            }
        }
        pos++; // the closing ]
        if (!negated) {
            if (first == null) {
                throw new IllegalStateException("empty class");
            }
            return String.valueOf(first);
        }
        for (char candidate : "aZ0_-x".toCharArray()) {
            if (!Pattern.matches("[" + members + "]", String.valueOf(candidate))) {
                return String.valueOf(candidate);
            }
        }
        throw new IllegalStateException("no character outside the negated class");
    }

    /** {min, max} of the quantifier after an atom (none: {1,1}). */
    private int[] quantifier() {
        if (pos >= pattern.length()) {
            return new int[] {1, 1};
        }
        char c = pattern.charAt(pos);
        int[] counts;
        switch (c) {
            case '?' -> {
                pos++;
                counts = new int[] {0, 1};
            }
            case '*' -> {
                pos++;
                counts = new int[] {0, Integer.MAX_VALUE};
            }
            case '+' -> {
                pos++;
                counts = new int[] {1, Integer.MAX_VALUE};
            }
            case '{' -> {
                int close = pattern.indexOf('}', pos);
                String body = pattern.substring(pos + 1, close);
                if (!body.matches("\\d+(,\\d*)?")) {
                    return new int[] {1, 1}; // a literal brace
                }
                pos = close + 1;
                String[] parts = body.split(",", -1);
                int min = Integer.parseInt(parts[0]);
                int max = parts.length == 1 ? min : parts[1].isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(parts[1]);
                counts = new int[] {min, max};
            }
            default -> {
                return new int[] {1, 1};
            }
        }
        if (pos < pattern.length() && (pattern.charAt(pos) == '?' || pattern.charAt(pos) == '+')) {
            pos++; // lazy or possessive: same counts
        }
        // one repetition where zero is allowed keeps optional parts visible in a sample
        if (counts[0] == 0 && c != '?') {
            counts[0] = Math.min(1, counts[1]);
        }
        return counts;
    }
}
