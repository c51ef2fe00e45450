package dev.toolsmith.search;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The dense vectors of one tool, computed once (see {@link ToolVectorizer}) and stored with the tool so a
 * restart does not re-embed the catalog: {@code tool} embeds the whole tool text (name, verb, description,
 * domain, tags, parameters) and ranks it; {@code title} embeds its name and verb alone and feeds the
 * confidence model. {@link #toBytes()} / {@link #fromBytes(byte[])} give a compact, versioned binary form
 * for a {@code bytea} column. Vectors are only valid with the {@code modelId} that made them.
 */
public record ToolVectors(String modelId, float[] tool, float[] title) {

    private static final int FORMAT = 2;

    public ToolVectors {
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(tool, "tool");
        title = title == null || title.length != tool.length ? tool : title;
    }

    /** Little-endian: format, model id length and bytes, dimension, then the tool and title vectors. */
    public byte[] toBytes() {
        byte[] id = modelId.getBytes(StandardCharsets.UTF_8);
        int dim = tool.length;
        ByteBuffer buf = ByteBuffer.allocate(4 + 4 + id.length + 4 + 2 * dim * 4).order(ByteOrder.LITTLE_ENDIAN);
        buf.putInt(FORMAT).putInt(id.length).put(id).putInt(dim);
        for (float f : tool) {
            buf.putFloat(f);
        }
        for (float f : title) {
            buf.putFloat(f);
        }
        return buf.array();
    }

    public static ToolVectors fromBytes(byte[] bytes) {
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int format = buf.getInt();
        if (format != FORMAT) {
            throw new IllegalArgumentException("unknown tool vector format " + format + ": re-vectorize the tool");
        }
        byte[] id = new byte[buf.getInt()];
        buf.get(id);
        int dim = buf.getInt();
        float[] tool = new float[dim];
        float[] title = new float[dim];
        for (int i = 0; i < dim; i++) {
            tool[i] = buf.getFloat();
        }
        for (int i = 0; i < dim; i++) {
            title[i] = buf.getFloat();
        }
        return new ToolVectors(new String(id, StandardCharsets.UTF_8), tool, title);
    }

    int dimension() {
        return tool.length;
    }
}
