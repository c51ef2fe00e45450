package dev.toolsmith.bench.retrieval;

import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolVectors;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark option {@code --vectors FILE}: reuses stored tool vectors between runs the way the librarian
 * reuses the ones it persists ({@link ToolVectors#toBytes()}), computing and adding only missing ones.
 * Index time then measures loading, not embedding.
 */
final class VectorCache {

    private VectorCache() {
    }

    static List<ToolVectors> load(Path file, ToolIndex index, List<ToolManifest> tools) throws IOException {
        Map<String, ToolVectors> cached = new HashMap<>();
        if (Files.exists(file)) {
            try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
                int n = in.readInt();
                for (int i = 0; i < n; i++) {
                    String id = in.readUTF();
                    byte[] bytes = new byte[in.readInt()];
                    in.readFully(bytes);
                    ToolVectors v = ToolVectors.fromBytes(bytes);
                    if (v.modelId().equals(index.modelId())) {
                        cached.put(id, v);
                    }
                }
            } catch (IOException | RuntimeException e) {
                cached.clear(); // a stale or foreign cache is recomputed
            }
        }
        List<ToolManifest> missing = tools.stream().filter(t -> !cached.containsKey(t.id())).toList();
        if (!missing.isEmpty()) {
            List<ToolVectors> computed = index.vectorizeAll(missing);
            for (int i = 0; i < missing.size(); i++) {
                cached.put(missing.get(i).id(), computed.get(i));
            }
            try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
                out.writeInt(cached.size());
                for (Map.Entry<String, ToolVectors> e : cached.entrySet()) {
                    byte[] bytes = e.getValue().toBytes();
                    out.writeUTF(e.getKey());
                    out.writeInt(bytes.length);
                    out.write(bytes);
                }
            }
        }
        List<ToolVectors> out = new ArrayList<>(tools.size());
        for (ToolManifest t : tools) {
            out.add(cached.get(t.id()));
        }
        return out;
    }
}
