package dev.agentarena.junit.engine.scoring.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import dev.agentarena.junit.engine.scoring.retrieval.RetrievalMetrics.Measure;

/**
 * The metrics against {@code retrieval-metrics.csv}: query/ranking pairs whose every value was computed by hand from
 * the formulas (and agrees with trec_eval 10.0 to its four printed decimals), with the edge cases the reference page
 * names; plus the rules the table cannot show.
 */
class RetrievalMetricsTest {

    /** One row of the table: ids and {@code id:grade} pairs separated by spaces, values as decimals or {@code n/a}. */
    record Row(String name, String ranking, String truth, int k, String hit, String recall, String precision,
            String reciprocalRank, String ndcg, String averagePrecision, String rPrecision, String error) {

        @Override
        public String toString() {
            return name;
        }

        List<String> rankedIds() {
            return ranking.isBlank() ? List.of() : List.of(ranking.strip().split(" +"));
        }

        Map<String, Integer> grades() {
            Map<String, Integer> grades = new LinkedHashMap<>();
            if (!truth.isBlank()) {
                for (String pair : truth.strip().split(" +")) {
                    int colon = pair.lastIndexOf(':');
                    grades.put(pair.substring(0, colon), Integer.parseInt(pair.substring(colon + 1)));
                }
            }
            return grades;
        }
    }

    static List<Row> table() throws IOException {
        return rows("retrieval-metrics.csv");
    }

    /** The rows of a table of this package's resources. */
    static List<Row> rows(String resource) throws IOException {
        CsvSchema schema = CsvSchema.emptySchema().withHeader();
        try (InputStream csv = RetrievalMetricsTest.class.getResourceAsStream(resource);
                MappingIterator<Row> rows = new CsvMapper().readerFor(Row.class).with(schema).readValues(csv)) {
            return rows.readAll();
        }
    }

    @Test
    void theTableHoldsAtLeastThirtyScoredPairsAndItsEdgeCases() throws IOException {
        List<Row> table = table();

        assertThat(table.stream().filter(row -> row.error().isEmpty() && !row.hit().equals("n/a")))
                .as("pairs with values").hasSizeGreaterThanOrEqualTo(30);
        assertThat(table).extracting(Row::name).contains("empty ranking with relevant passages: real 0",
                "truth names nothing: not applicable", "k beyond the list, half found",
                "tied scores: list order is the rank", "duplicate relevant id refused");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void everyMetricMatchesTheHandComputedValue(Row row) {
        if (!row.error().isEmpty()) {
            assertThatThrownBy(() -> {
                RetrievalMetrics metrics = RetrievalMetrics.of(row.rankedIds(), row.grades());
                metrics.hitAt(row.k());
            }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(row.error());
            return;
        }
        assertRow(row, 6e-11);
    }

    /** Every metric of the row's pair equals the row's value, within this tolerance, or is not applicable for n/a. */
    static void assertRow(Row row, double tolerance) {
        RetrievalMetrics metrics = RetrievalMetrics.of(row.rankedIds(), row.grades());
        int k = row.k();

        assertMeasure(metrics.hitAt(k), row.hit(), "hit@" + k, tolerance);
        assertMeasure(metrics.recallAt(k), row.recall(), "recall@" + k, tolerance);
        assertMeasure(metrics.precisionAt(k), row.precision(), "precision@" + k, tolerance);
        assertMeasure(metrics.reciprocalRank(), row.reciprocalRank(), "reciprocal rank", tolerance);
        assertMeasure(metrics.ndcgAt(k), row.ndcg(), "nDCG@" + k, tolerance);
        assertMeasure(metrics.averagePrecision(), row.averagePrecision(), "average precision", tolerance);
        assertMeasure(metrics.rPrecision(), row.rPrecision(), "R-precision", tolerance);
    }

    @Test
    void theListOrderIsTheRankWhateverTheScoresWouldSay() {
        // retrieved c, b, a with scores 0.1, 0.5, 0.9: trec_eval would rank a first, the prompt had c first
        RetrievalMetrics metrics = RetrievalMetrics.of(List.of("c", "b", "a"), Map.of("a", 1));

        assertThat(metrics.reciprocalRank()).isEqualTo(new Measure.Score(1.0 / 3));
        assertThat(metrics.hitAt(1)).isEqualTo(new Measure.Score(0.0));
    }

    @Test
    void noRelevantPassageIsNotApplicableWithTheMetricAndTheReason() {
        RetrievalMetrics metrics = RetrievalMetrics.of(List.of("a"), Map.of("a", 0));

        assertThat(metrics.recallAt(5)).isInstanceOfSatisfying(Measure.NotApplicable.class,
                measure -> assertThat(measure.reason()).startsWith("recall@5 is not applicable")
                        .contains("the truth names no relevant passage"));
    }

    @Test
    void anEmptyRankingWithRelevantPassagesScoresARealZero() {
        RetrievalMetrics metrics = RetrievalMetrics.of(List.of(), Map.of("a", 2));

        List<Function<RetrievalMetrics, Measure>> all = List.of(m -> m.hitAt(3), m -> m.recallAt(3),
                m -> m.precisionAt(3), RetrievalMetrics::reciprocalRank, m -> m.ndcgAt(3),
                RetrievalMetrics::averagePrecision, RetrievalMetrics::rPrecision);
        assertThat(all).allSatisfy(metric -> assertThat(metric.apply(metrics)).isEqualTo(new Measure.Score(0.0)));
    }

    @Test
    void averagePrecisionOverVerdictsAveragesPrecisionAtEachRelevantRank() {
        assertThat(RetrievalMetrics.averagePrecision(new boolean[] {true, false, true}))
                .isEqualTo(new Measure.Score((1.0 + 2.0 / 3) / 2));
        assertThat(RetrievalMetrics.averagePrecision(new boolean[] {false, true}))
                .isEqualTo(new Measure.Score(0.5));
    }

    @Test
    void averagePrecisionOverVerdictsIsZeroWhenNoPassageIsRelevantAndNotApplicableWhenNoneWasRetrieved() {
        assertThat(RetrievalMetrics.averagePrecision(new boolean[] {false, false})).isEqualTo(new Measure.Score(0));
        assertThat(RetrievalMetrics.averagePrecision(new boolean[0])).isInstanceOfSatisfying(
                Measure.NotApplicable.class, measure -> assertThat(measure.reason()).contains("no passage"));
    }

    @Test
    void aDuplicateIdOfAnyLengthIsNamedShortAndPrintable() {
        String hostile = "x\u0000\u001b[2J" + "y".repeat(1_000_000);
        List<String> ranking = List.of(hostile, "b", hostile);

        assertThatThrownBy(() -> RetrievalMetrics.of(ranking, Map.of("b", 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'x\\u0000\\u001b[2J" + "y".repeat(94) + "…' is retrieved twice, at ranks 1 and 3")
                .satisfies(error -> assertThat(error.getMessage()).hasSizeLessThan(400));
    }

    @Test
    void aMissingIdOrGradeIsRefusedNamingItsPlace() {
        Map<String, Integer> nullGrade = new LinkedHashMap<>();
        nullGrade.put("doc-7", null);

        assertThatThrownBy(() -> RetrievalMetrics.of(Arrays.asList("a", null), Map.of("a", 1)))
                .hasMessage("the passage at rank 2 has no id");
        assertThatThrownBy(() -> RetrievalMetrics.of(List.of("a"), nullGrade))
                .hasMessageContaining("the grade of passage 'doc-7' is null");
    }

    private static void assertMeasure(Measure actual, String expected, String metric, double tolerance) {
        if (expected.equals("n/a")) {
            assertThat(actual).as(metric).isInstanceOfSatisfying(Measure.NotApplicable.class,
                    measure -> assertThat(measure.reason()).startsWith(metric + " is not applicable"));
        }
        else {
            assertThat(actual).as(metric).isInstanceOfSatisfying(Measure.Score.class,
                    measure -> assertThat(measure.value()).as(metric).isCloseTo(Double.parseDouble(expected),
                            within(tolerance)));
        }
    }
}
