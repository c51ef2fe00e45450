package dev.toolsmith.capabilities.plugins;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small recursive-descent evaluator for arithmetic: {@code + - * / % ^}, parentheses, unary minus,
 * named variables and the functions {@code abs sqrt round floor ceil min max pow ln log10 exp}.
 * Decimal arithmetic (34 digits), so {@code 0.1 + 0.2} is {@code 0.3}. No identifiers beyond the given
 * variables and these functions are reachable: an expression cannot run code.
 */
final class ArithmeticExpression {

    private static final MathContext MC = MathContext.DECIMAL128;
    private static final int MAX_LENGTH = 2_000;
    private static final int MAX_EXPONENT = 9_999;

    private final String text;
    private final Map<String, BigDecimal> variables;
    private int pos;

    private ArithmeticExpression(String text, Map<String, BigDecimal> variables) {
        this.text = text;
        this.variables = variables;
    }

    static BigDecimal evaluate(String expression, Map<String, BigDecimal> variables) {
        if (expression.length() > MAX_LENGTH) {
            throw new PluginFailure("the expression is longer than " + MAX_LENGTH + " characters");
        }
        ArithmeticExpression parser = new ArithmeticExpression(expression, variables);
        BigDecimal value = parser.sum();
        parser.skipSpaces();
        if (parser.pos < expression.length()) {
            throw parser.error("unexpected '" + expression.charAt(parser.pos) + "'");
        }
        return value;
    }

    private BigDecimal sum() {
        BigDecimal value = product();
        while (true) {
            if (eat('+')) {
                value = value.add(product(), MC);
            } else if (eat('-')) {
                value = value.subtract(product(), MC);
            } else {
                return value;
            }
        }
    }

    private BigDecimal product() {
        BigDecimal value = unary();
        while (true) {
            if (eat('*')) {
                value = value.multiply(unary(), MC);
            } else if (eat('/')) {
                value = divide(value, unary());
            } else if (eat('%')) {
                BigDecimal divisor = unary();
                if (divisor.signum() == 0) {
                    throw error("remainder of a division by zero");
                }
                value = value.remainder(divisor, MC);
            } else {
                return value;
            }
        }
    }

    private BigDecimal unary() {
        if (eat('-')) {
            return unary().negate();
        }
        if (eat('+')) {
            return unary();
        }
        return power();
    }

    /** Right-associative: {@code 2^3^2} is {@code 2^9}. */
    private BigDecimal power() {
        BigDecimal base = atom();
        if (eat('^')) {
            return pow(base, unary());
        }
        return base;
    }

    private BigDecimal atom() {
        skipSpaces();
        if (eat('(')) {
            BigDecimal inner = sum();
            expect(')');
            return inner;
        }
        if (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
            return number();
        }
        if (pos < text.length() && (Character.isLetter(text.charAt(pos)) || text.charAt(pos) == '_')) {
            String name = identifier();
            skipSpaces();
            if (pos < text.length() && text.charAt(pos) == '(') {
                pos++;
                List<BigDecimal> args = new ArrayList<>();
                if (!eat(')')) {
                    do {
                        args.add(sum());
                    } while (eat(','));
                    expect(')');
                }
                return call(name, args);
            }
            BigDecimal value = variables.get(name);
            if (value == null) {
                throw error("unknown variable '" + name + "' (give it in variables)");
            }
            return value;
        }
        throw error(pos < text.length() ? "unexpected '" + text.charAt(pos) + "'" : "the expression ends too early");
    }

    private BigDecimal call(String name, List<BigDecimal> args) {
        return switch (name) {
            case "abs" -> one(name, args).abs();
            case "sqrt" -> {
                BigDecimal x = one(name, args);
                if (x.signum() < 0) {
                    throw error("sqrt of a negative number");
                }
                yield x.sqrt(MC);
            }
            case "round" -> {
                if (args.size() == 1) {
                    yield args.get(0).setScale(0, RoundingMode.HALF_UP);
                }
                two(name, args);
                yield args.get(0).setScale(args.get(1).intValue(), RoundingMode.HALF_UP);
            }
            case "floor" -> one(name, args).setScale(0, RoundingMode.FLOOR);
            case "ceil" -> one(name, args).setScale(0, RoundingMode.CEILING);
            case "min" -> args.stream().min(BigDecimal::compareTo).orElseThrow(() -> error("min needs arguments"));
            case "max" -> args.stream().max(BigDecimal::compareTo).orElseThrow(() -> error("max needs arguments"));
            case "pow" -> {
                two(name, args);
                yield pow(args.get(0), args.get(1));
            }
            case "ln" -> real(Math.log(positive(name, one(name, args))));
            case "log10" -> real(Math.log10(positive(name, one(name, args))));
            case "exp" -> real(Math.exp(one(name, args).doubleValue()));
            default -> throw error("unknown function '" + name + "'");
        };
    }

    private BigDecimal pow(BigDecimal base, BigDecimal exponent) {
        if (exponent.stripTrailingZeros().scale() <= 0 && exponent.abs().compareTo(BigDecimal.valueOf(MAX_EXPONENT)) <= 0) {
            int n = exponent.intValueExact();
            if (n < 0 && base.signum() == 0) {
                throw error("zero to a negative power");
            }
            return base.pow(n, MC);
        }
        return real(Math.pow(base.doubleValue(), exponent.doubleValue()));
    }

    private BigDecimal divide(BigDecimal dividend, BigDecimal divisor) {
        if (divisor.signum() == 0) {
            throw error("division by zero");
        }
        return dividend.divide(divisor, MC);
    }

    private double positive(String function, BigDecimal x) {
        if (x.signum() <= 0) {
            throw error(function + " needs a positive number");
        }
        return x.doubleValue();
    }

    private BigDecimal real(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw error("the result is not a finite number");
        }
        return new BigDecimal(value, MathContext.DECIMAL64);
    }

    private BigDecimal one(String name, List<BigDecimal> args) {
        if (args.size() != 1) {
            throw error(name + " takes 1 argument, got " + args.size());
        }
        return args.get(0);
    }

    private void two(String name, List<BigDecimal> args) {
        if (args.size() != 2) {
            throw error(name + " takes 2 arguments, got " + args.size());
        }
    }

    private BigDecimal number() {
        int start = pos;
        while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
            pos++;
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            int mark = pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                    pos++;
                }
            } else {
                pos = mark;
            }
        }
        try {
            return new BigDecimal(text.substring(start, pos));
        } catch (NumberFormatException e) {
            throw error("'" + text.substring(start, pos) + "' is not a number");
        }
    }

    private String identifier() {
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private boolean eat(char c) {
        skipSpaces();
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!eat(c)) {
            throw error("expected '" + c + "'");
        }
    }

    private void skipSpaces() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private PluginFailure error(String problem) {
        return new PluginFailure("expression '" + text + "' at position " + (pos + 1) + ": " + problem);
    }
}
