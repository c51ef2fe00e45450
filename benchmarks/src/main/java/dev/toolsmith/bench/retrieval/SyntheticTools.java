package dev.toolsmith.bench.retrieval;

import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolVectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Pads a catalog to a target size with distinct synthetic tools for latency and memory runs. Their words
 * are drawn from the real tools' vocabulary and their vectors are noisy blends of real tools' vectors,
 * so both matchers face realistic distractors without spending hours embedding 100,000 texts.
 */
final class SyntheticTools {

    private SyntheticTools() {
    }

    static void pad(ToolIndex index, List<ToolManifest> real, List<ToolVectors> realVectors, int target, long seed) {
        Random rnd = new Random(seed);
        List<String> vocabulary = new ArrayList<>();
        for (ToolManifest t : real) {
            if (t.description() != null) {
                for (String w : t.description().split("[^\\p{L}\\p{N}]+")) {
                    if (w.length() > 2) {
                        vocabulary.add(w.toLowerCase(java.util.Locale.ROOT));
                    }
                }
            }
        }
        if (vocabulary.isEmpty()) {
            vocabulary.add("tool");
        }
        int dim = realVectors.get(0).tool().length;
        String modelId = realVectors.get(0).modelId();
        List<ToolIndex.IndexedTool> batch = new ArrayList<>();
        for (int n = real.size(); n < target; n++) {
            String name = words(vocabulary, rnd, 2) + " " + n;
            String description = words(vocabulary, rnd, 12 + rnd.nextInt(20)) + ".";
            ToolManifest tool = new ToolManifest("synthetic-" + n, null, name, description, ToolSourceType.INTERNAL,
                    "synthetic", null, List.of(words(vocabulary, rnd, 1)), null, null, Risk.READ_ONLY, null, null,
                    1, null);
            batch.add(new ToolIndex.IndexedTool(tool,
                    new ToolVectors(modelId, blend(realVectors, rnd, dim), blend(realVectors, rnd, dim)), null));
            if (batch.size() == 5_000) {
                index.upsertAll(batch);
                batch.clear();
            }
        }
        index.upsertAll(batch);
    }

    private static String words(List<String> vocabulary, Random rnd, int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(vocabulary.get(rnd.nextInt(vocabulary.size())));
        }
        return sb.toString();
    }

    /** A vector between two random real tools, pushed off them by noise, with the real tools' norm. */
    private static float[] blend(List<ToolVectors> real, Random rnd, int dim) {
        float[] a = real.get(rnd.nextInt(real.size())).tool();
        float[] b = real.get(rnd.nextInt(real.size())).tool();
        double w = rnd.nextDouble();
        float[] v = new float[dim];
        double norm = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = (float) (w * a[i] + (1 - w) * b[i] + rnd.nextGaussian() * 0.03);
            norm += v[i] * v[i];
        }
        double target = 0;
        for (float x : a) {
            target += x * x;
        }
        float inv = (float) (Math.sqrt(target) / Math.sqrt(norm));
        for (int i = 0; i < dim; i++) {
            v[i] *= inv;
        }
        return v;
    }
}
