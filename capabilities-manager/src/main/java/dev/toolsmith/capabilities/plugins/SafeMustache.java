package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.github.mustachejava.Binding;
import com.github.mustachejava.Code;
import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import com.github.mustachejava.MustacheException;
import com.github.mustachejava.TemplateContext;
import com.github.mustachejava.codes.ValueCode;
import com.github.mustachejava.reflect.MapObjectHandler;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * mustache.java locked down for templates from untrusted plans; one instance per render.
 * <ul>
 *   <li>Values are plain maps, lists, strings, numbers and booleans built from JSON, read through
 *       {@link MapObjectHandler}: no getter or method of any Java object is ever called.</li>
 *   <li>Partials ({@code {{> name}}}) are refused: a template cannot read a file or a class-path resource.</li>
 *   <li>No HTML escaping: the output is plain text, so {@code {{x}}} and {@code {{{x}}}} render alike.</li>
 *   <li>A value tag that resolves to an object or a list renders it as JSON text.</li>
 *   <li>The output is capped; value tags that found nothing are listed in {@link #missing()}.</li>
 * </ul>
 */
final class SafeMustache extends DefaultMustacheFactory {

    private final int maxOutput;
    private final List<String> missing = Collections.synchronizedList(new ArrayList<>());

    SafeMustache(int maxOutput) {
        this.maxOutput = maxOutput;
        setObjectHandler(new ValuesOnly());
    }

    /** The names of value tags that found no value, in the order they were rendered. */
    List<String> missing() {
        return missing;
    }

    void render(Reader template, Object scope, Writer out) {
        try {
            Mustache mustache = compile(template, "template");
            mustache.execute(new CappedWriter(out, maxOutput), scope).flush();
        } catch (OutputTooLong e) {
            throw new PluginFailure("the rendered text is longer than " + maxOutput + " characters");
        } catch (MustacheException e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof OutputTooLong) {
                throw new PluginFailure("the rendered text is longer than " + maxOutput + " characters");
            }
            throw new PluginFailure("the template is not valid Mustache: " + e.getMessage());
        } catch (IOException e) {
            throw new PluginFailure("the template could not be rendered: " + e.getMessage());
        }
    }

    @Override
    public Mustache compilePartial(String name) {
        throw new MustacheException("partials ({{> " + name + "}}) are not allowed");
    }

    @Override
    public void encode(String value, Writer writer) {
        try {
            writer.write(value); // plain text: no HTML escaping
        } catch (IOException e) {
            throw new MustacheException(e.getMessage(), e);
        }
    }

    /** JSON as what the object handler reads: objects to maps, arrays to lists, scalars to strings, numbers and booleans. */
    static Object scope(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.fields().forEachRemaining(field -> map.put(field.getKey(), scope(field.getValue())));
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            node.forEach(element -> list.add(scope(element)));
            return list;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        return node.isNumber() ? node.numberValue() : node.asText();
    }

    private final class ValuesOnly extends MapObjectHandler {

        @Override
        public Binding createBinding(String name, TemplateContext tc, Code code) {
            Binding binding = super.createBinding(name, tc, code);
            if (!(code instanceof ValueCode)) {
                return binding; // sections test for presence: an absent value is not a mistake there
            }
            return scopes -> {
                Object value = binding.get(scopes);
                if (value == null) {
                    missing.add(name);
                }
                return value;
            };
        }

        @Override
        public String stringify(Object object) {
            if (object instanceof Map<?, ?> || object instanceof List<?>) {
                try {
                    return Manifests.JSON.writeValueAsString(object);
                } catch (JsonProcessingException e) {
                    throw new MustacheException(e.getMessage(), e);
                }
            }
            return super.stringify(object);
        }
    }

    private static final class OutputTooLong extends IOException {
        OutputTooLong() {
            super("output cap reached");
        }
    }

    private static final class CappedWriter extends Writer {
        private final Writer out;
        private final int cap;
        private long written;

        CappedWriter(Writer out, int cap) {
            this.out = out;
            this.cap = cap;
        }

        @Override
        public void write(char[] buffer, int offset, int length) throws IOException {
            written += length;
            if (written > cap) {
                throw new OutputTooLong();
            }
            out.write(buffer, offset, length);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
