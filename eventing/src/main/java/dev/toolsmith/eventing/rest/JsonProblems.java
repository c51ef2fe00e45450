package dev.toolsmith.eventing.rest;

import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.PropertyBindingException;
import java.time.temporal.Temporal;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Jackson's binding errors in a caller's words: what JSON was expected where, never the Java class it was to
 * become (Jackson says "Cannot deserialize value of type `dev.toolsmith…SourceRequest` from Array value", a
 * caller needs "expected an object").
 */
final class JsonProblems {

    /** A backquoted Java type name in a Jackson message, e.g. {@code `java.util.ArrayList<java.util.UUID>`}. */
    private static final Pattern JAVA_TYPE = Pattern.compile("`[A-Za-z_$][\\w$.]*(<[^`]*>)?(\\[\\])*`");

    private JsonProblems() {
    }

    static String describe(MismatchedInputException e) {
        if (e instanceof PropertyBindingException unknown) {
            return "unknown field '" + unknown.getPropertyName() + "'";
        }
        Class<?> target = e.getTargetType();
        if (target == null) {
            return withoutJavaNames(e.getOriginalMessage());
        }
        String expected = "expected " + expected(target);
        if (e instanceof InvalidFormatException invalid && invalid.getValue() != null) {
            String found = String.valueOf(invalid.getValue());
            return expected + ", found '" + (found.length() > 40 ? found.substring(0, 40) + "…" : found) + "'";
        }
        return expected;
    }

    /** What JSON a Java type is bound from. */
    static String expected(Class<?> type) {
        if (type == String.class || type == char.class || type == Character.class) {
            return "a string";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == int.class || type == long.class || type == short.class || type == byte.class
                || type == Integer.class || type == Long.class || type == Short.class || type == Byte.class
                || type == java.math.BigInteger.class) {
            return "a whole number";
        }
        if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type == UUID.class) {
            return "a UUID string";
        }
        if (Temporal.class.isAssignableFrom(type) || type == java.time.Duration.class) {
            return "an ISO-8601 string";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(Object::toString)
                    .collect(Collectors.joining(", ", "[", "]"));
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type) || !type.getName().startsWith("java.")) {
            return "an object";
        }
        return "a value of another kind";
    }

    /** A Jackson message with its backquoted Java type names replaced, for the cases {@link #describe} does not cover. */
    static String withoutJavaNames(String message) {
        return message == null ? "no detail given" : JAVA_TYPE.matcher(message).replaceAll("the expected value");
    }
}
