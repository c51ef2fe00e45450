package dev.toolsmith.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * OpenAPI 3 parameter serialisation: path ({@code simple}, {@code label}, {@code matrix}), query
 * ({@code form}, {@code spaceDelimited}, {@code pipeDelimited}, {@code deepObject}), header
 * ({@code simple}) and cookie ({@code form}), each with and without {@code explode}. Values are
 * percent-encoded for their place in the URL; the delimiters the style adds are not.
 */
final class ParameterSerializer {

    private ParameterSerializer() {
    }

    /** The text that replaces {@code {name}} in the path template. */
    static String path(String name, JsonNode value, String style, Boolean explode) {
        String s = style == null ? "simple" : style.toLowerCase(Locale.ROOT);
        boolean ex = explode != null && explode;
        return switch (s) {
            case "label" -> label(value, ex);
            case "matrix" -> matrix(name, value, ex);
            default -> joined(value, ex, ",", "=", ParameterSerializer::encode);
        };
    }

    /** Encoded {@code name=value} pairs for the query string. */
    static List<String> query(String name, JsonNode value, String style, Boolean explodeOrNull) {
        String s = style == null ? "form" : style;
        boolean explode = explodeOrNull == null ? "form".equalsIgnoreCase(s) : explodeOrNull;
        List<String> pairs = new ArrayList<>();
        if (value.isArray()) {
            if (explode) {
                value.forEach(element -> pairs.add(encode(name) + "=" + encode(scalar(element))));
            } else {
                String delimiter = switch (s) {
                    case "spaceDelimited" -> "%20";
                    case "pipeDelimited" -> "%7C";
                    default -> ",";
                };
                pairs.add(encode(name) + "=" + join(value, delimiter));
            }
        } else if (value.isObject()) {
            if ("deepObject".equals(s)) {
                deepObject(encode(name), value, pairs);
            } else if (explode) {
                value.fields().forEachRemaining(e -> pairs.add(encode(e.getKey()) + "=" + encode(scalar(e.getValue()))));
            } else {
                String delimiter = switch (s) {
                    case "spaceDelimited" -> "%20";
                    case "pipeDelimited" -> "%7C";
                    default -> ",";
                };
                pairs.add(encode(name) + "=" + keyValues(value, delimiter, delimiter, ParameterSerializer::encode));
            }
        } else {
            pairs.add(encode(name) + "=" + encode(scalar(value)));
        }
        return pairs;
    }

    /** A header value ({@code simple} style); not percent-encoded, so CR/LF are refused by the caller. */
    static String header(JsonNode value, Boolean explode) {
        return joined(value, explode != null && explode, ",", "=", text -> text);
    }

    /** One {@code name=value} cookie pair ({@code form} style, value percent-encoded). */
    static String cookie(String name, JsonNode value, Boolean explode) {
        if (value.isArray() && explode != null && explode) {
            List<String> parts = new ArrayList<>();
            value.forEach(element -> parts.add(name + "=" + encode(scalar(element))));
            return String.join("; ", parts);
        }
        return name + "=" + joined(value, false, ",", ",", ParameterSerializer::encode);
    }

    /** A property of an {@code application/x-www-form-urlencoded} body: objects travel as JSON text. */
    static List<String> formField(String name, JsonNode value) {
        List<String> pairs = new ArrayList<>();
        if (value.isArray()) {
            value.forEach(element -> pairs.add(formEncode(name) + "=" + formEncode(scalar(element))));
        } else {
            pairs.add(formEncode(name) + "=" + formEncode(scalar(value)));
        }
        return pairs;
    }

    private static String label(JsonNode value, boolean explode) {
        if (value.isArray()) {
            return "." + join(value, explode ? "." : ",");
        }
        if (value.isObject()) {
            return "." + (explode ? keyValues(value, "=", ".", ParameterSerializer::encode)
                    : keyValues(value, ",", ",", ParameterSerializer::encode));
        }
        return "." + encode(scalar(value));
    }

    private static String matrix(String name, JsonNode value, boolean explode) {
        if (value.isArray()) {
            if (explode) {
                StringBuilder out = new StringBuilder();
                value.forEach(element -> out.append(';').append(encode(name)).append('=').append(encode(scalar(element))));
                return out.toString();
            }
            return ";" + encode(name) + "=" + join(value, ",");
        }
        if (value.isObject()) {
            return explode ? ";" + keyValues(value, "=", ";", ParameterSerializer::encode)
                    : ";" + encode(name) + "=" + keyValues(value, ",", ",", ParameterSerializer::encode);
        }
        return ";" + encode(name) + "=" + encode(scalar(value));
    }

    /** simple style: arrays a,b,c; objects k,v,k2,v2 or (exploded) k=v,k2=v2. */
    private static String joined(JsonNode value, boolean explode, String delimiter, String kvExploded,
            java.util.function.UnaryOperator<String> enc) {
        if (value.isArray()) {
            List<String> parts = new ArrayList<>();
            value.forEach(element -> parts.add(enc.apply(scalar(element))));
            return String.join(delimiter, parts);
        }
        if (value.isObject()) {
            return explode ? keyValues(value, kvExploded, delimiter, enc) : keyValues(value, delimiter, delimiter, enc);
        }
        return enc.apply(scalar(value));
    }

    private static String keyValues(JsonNode object, String kvSeparator, String pairSeparator,
            java.util.function.UnaryOperator<String> enc) {
        List<String> parts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            parts.add(enc.apply(e.getKey()) + kvSeparator + enc.apply(scalar(e.getValue())));
        }
        return String.join(pairSeparator, parts);
    }

    private static String join(JsonNode array, String delimiter) {
        List<String> parts = new ArrayList<>();
        array.forEach(element -> parts.add(encode(scalar(element))));
        return String.join(delimiter, parts);
    }

    private static void deepObject(String prefix, JsonNode object, List<String> pairs) {
        object.fields().forEachRemaining(e -> {
            String key = prefix + "%5B" + encode(e.getKey()) + "%5D";
            if (e.getValue().isObject()) {
                deepObject(key, e.getValue(), pairs);
            } else if (e.getValue().isArray()) {
                e.getValue().forEach(element -> pairs.add(key + "=" + encode(scalar(element))));
            } else {
                pairs.add(key + "=" + encode(scalar(e.getValue())));
            }
        });
    }

    /** The wire text of a scalar; nested arrays and objects become JSON text. */
    static String scalar(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return "";
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isFloatingPointNumber() || value.isBigDecimal()) {
            return value.decimalValue().stripTrailingZeros().toPlainString();
        }
        if (value.isValueNode()) {
            return value.asText();
        }
        return value.toString();
    }

    /** RFC 3986 percent-encoding: everything but unreserved characters. */
    static String encode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = null;
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xff;
            boolean unreserved = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                    || b == '-' || b == '.' || b == '_' || b == '~';
            if (unreserved) {
                if (out != null) {
                    out.append((char) b);
                }
            } else {
                if (out == null) {
                    out = new StringBuilder(bytes.length + 16);
                    for (int j = 0; j < i; j++) {
                        out.append((char) (bytes[j] & 0xff));
                    }
                }
                out.append('%').append(HEX[b >> 4]).append(HEX[b & 0xf]);
            }
        }
        return out == null ? text : out.toString();
    }

    private static String formEncode(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
}
