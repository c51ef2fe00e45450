package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** How the step models read the catalog's size ({@link ConfidenceModel#catalogScale}). */
class CatalogScaleTest {

    private static final int SIZE = ConfidenceModel.FEATURES.indexOf("size");
    private static final int SIZE_MARGIN = ConfidenceModel.FEATURES.indexOf("sizeMargin");
    private static final int SIZE_Z_DENSE = ConfidenceModel.FEATURES.indexOf("sizeZDense");

    @Test
    void aCatalogOutsideTheSizesTheModelsSawReadsAsTheNearestOne() {
        // smaller than the fitted step sets (a dozen tools, an empty index, a nonsense count): as small as they
        for (int tools : new int[] {Integer.MIN_VALUE, -1, 0, 1, 12, ConfidenceModel.SMALL_CATALOG}) {
            assertThat(ConfidenceModel.catalogScale(tools)).as("%d tools", tools).isZero();
        }
        // larger than any: as large as the largest, never beyond it
        for (int tools : new int[] {ConfidenceModel.LARGE_CATALOG, 1_000_000, Integer.MAX_VALUE}) {
            assertThat(ConfidenceModel.catalogScale(tools)).as("%d tools", tools).isEqualTo(1.0);
        }
    }

    @Test
    void betweenThemTheScaleIsLogarithmic() {
        assertThat(ConfidenceModel.catalogScale(2 * ConfidenceModel.SMALL_CATALOG)).isCloseTo(0.2, within(1e-12));
        assertThat(ConfidenceModel.catalogScale(8 * ConfidenceModel.SMALL_CATALOG)).isCloseTo(0.6, within(1e-12));
        assertThat(ConfidenceModel.catalogScale(87_715)).isCloseTo(0.884, within(0.001));
        double previous = 0;
        for (int tools = ConfidenceModel.SMALL_CATALOG; tools <= ConfidenceModel.LARGE_CATALOG; tools += 997) {
            double scale = ConfidenceModel.catalogScale(tools);
            assertThat(scale).isGreaterThanOrEqualTo(previous);
            previous = scale;
        }
    }

    /**
     * The evidence that says "this step's top hit stands out" counts for less in a large catalog: the same features
     * give a lower step confidence at 87,715 tools than at 4,000, and the free-text model does not read the size.
     */
    @Test
    void theSameLeadMeansLessInALargeCatalog() {
        double[] small = stepFeatures(0);
        double[] large = stepFeatures(ConfidenceModel.catalogScale(87_715));
        assertThat(ConfidenceModel.probability(RetrievalMode.HYBRID, true, large))
                .isLessThan(ConfidenceModel.probability(RetrievalMode.HYBRID, true, small));
        assertThat(ConfidenceModel.probability(RetrievalMode.BM25, true, large))
                .isLessThan(ConfidenceModel.probability(RetrievalMode.BM25, true, small));
        assertThat(ConfidenceModel.probability(RetrievalMode.HYBRID, false, large))
                .isEqualTo(ConfidenceModel.probability(RetrievalMode.HYBRID, false, small));
    }

    /** A plan step's typical top hit, in a catalog of the given scale. */
    private static double[] stepFeatures(double scale) {
        double[] f = new double[ConfidenceModel.FEATURES.size()];
        double zDense = 6.0;
        double margin = 1.4;
        double[] evidence = {zDense, 4.0, margin, 1.0, 0.75, 0.75, 2.3, 0.8, 0.05, 0.7, 1.0, 0.0, 0.0};
        System.arraycopy(evidence, 0, f, 0, evidence.length);
        f[SIZE] = scale;
        f[SIZE_MARGIN] = scale * margin;
        f[SIZE_Z_DENSE] = scale * zDense;
        return f;
    }
}
