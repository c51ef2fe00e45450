package dev.toolsmith.search;

import java.util.Random;

/** Random unit vectors for the vector-table tests. */
final class RandomVectors {

    private RandomVectors() {
    }

    /** A unit vector of {@code dim} Gaussian components (a uniformly random direction). */
    static float[] unit(Random random, int dim) {
        float[] v = new float[dim];
        double norm = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < dim; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }
}
