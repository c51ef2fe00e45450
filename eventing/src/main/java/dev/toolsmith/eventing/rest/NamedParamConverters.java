package dev.toolsmith.eventing.rest;

import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ParamConverter;
import jakarta.ws.rs.ext.ParamConverterProvider;
import jakarta.ws.rs.ext.Provider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.UUID;
import java.util.function.Function;

/**
 * Converts number and UUID parameters with a 400 that names the parameter and what it expects. Without it, a
 * query value that is not a number ({@code size=abc}, {@code page=1e3}, one that overflows) was a bare
 * "404 Not Found" (what JAX-RS prescribes for a query or path value that does not convert), which tells the
 * caller nothing.
 */
@Provider
public class NamedParamConverters implements ParamConverterProvider {

    @Override
    @SuppressWarnings("unchecked")
    public <T> ParamConverter<T> getConverter(Class<T> rawType, Type genericType, Annotation[] annotations) {
        String name = nameOf(annotations);
        if (rawType == int.class || rawType == Integer.class) {
            return (ParamConverter<T>) converter(name, "a whole number from " + Integer.MIN_VALUE + " to "
                    + Integer.MAX_VALUE, Integer::valueOf);
        }
        if (rawType == long.class || rawType == Long.class) {
            return (ParamConverter<T>) converter(name, "a whole number from " + Long.MIN_VALUE + " to "
                    + Long.MAX_VALUE, Long::valueOf);
        }
        if (rawType == UUID.class) {
            return (ParamConverter<T>) converter(name, "a UUID such as 123e4567-e89b-12d3-a456-426614174000",
                    NamedParamConverters::uuid);
        }
        return null;
    }

    private static <T> ParamConverter<T> converter(String name, String expected, Function<String, T> parse) {
        return new ParamConverter<>() {
            @Override
            public T fromString(String value) {
                if (value == null) {
                    return null;
                }
                try {
                    return parse.apply(value.strip());
                } catch (IllegalArgumentException e) {
                    throw new BadRequestException(Response.status(400).type(MediaType.APPLICATION_JSON_TYPE)
                            .entity(ApiError.of(400, name + ": expected " + expected + ", found '" + shown(value) + "'"))
                            .build());
                }
            }

            @Override
            public String toString(T value) {
                return value == null ? null : value.toString();
            }
        };
    }

    /** Only the canonical 36-character form: {@link UUID#fromString} also takes "1-2-3-4-5". */
    private static UUID uuid(String value) {
        if (value.length() != 36) {
            throw new IllegalArgumentException("not 36 characters");
        }
        return UUID.fromString(value);
    }

    private static String nameOf(Annotation[] annotations) {
        if (annotations != null) {
            for (Annotation annotation : annotations) {
                if (annotation instanceof QueryParam query) {
                    return "query parameter " + query.value();
                }
                if (annotation instanceof PathParam path) {
                    return "path parameter " + path.value();
                }
                if (annotation instanceof HeaderParam header) {
                    return "header " + header.value();
                }
            }
        }
        return "a parameter";
    }

    /** The value as the caller sent it, cut short and with control characters named, never echoed raw. */
    private static String shown(String value) {
        String cut = value.length() > 40 ? value.substring(0, 40) + "…" : value;
        StringBuilder shown = new StringBuilder();
        cut.chars().forEach(c -> shown.append(ControlCharacters.isControl((char) c)
                ? ControlCharacters.codePoint(c) : String.valueOf((char) c)));
        return shown.toString();
    }
}
