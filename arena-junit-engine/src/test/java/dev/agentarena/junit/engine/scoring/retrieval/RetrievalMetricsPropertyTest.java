package dev.agentarena.junit.engine.scoring.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.scoring.retrieval.RetrievalMetrics.Measure;

/**
 * Property: on thousands of random rankings (empty ones, k past the list, graded and empty truths) every metric equals
 * a second, deliberately naive implementation written from the textbook definitions: sets, sublists and sorting
 * instead of one pass. The seed is fixed so the build is repeatable; a failure names the query. And on a thousand
 * random queries, every metric equals what trec_eval 10.0 printed for them ({@code trec-eval-random.csv}: each query's
 * run written with strictly decreasing scores, so that trec_eval's order is the list's, and its values as printed,
 * to four decimals).
 */
class RetrievalMetricsPropertyTest {

    private static final int QUERIES = 5_000;

    @Test
    void everyMetricAgreesWithANaiveImplementation() {
        Random random = new Random(42);
        int notApplicable = 0;
        for (int query = 0; query < QUERIES; query++) {
            List<String> pool = new ArrayList<>();
            for (int id = 0; id < 1 + random.nextInt(15); id++) {
                pool.add("d" + id);
            }
            Collections.shuffle(pool, random);
            List<String> ranking = pool.subList(0, random.nextInt(pool.size() + 1));
            Collections.shuffle(pool, random);
            Map<String, Integer> truth = new HashMap<>();
            pool.subList(0, random.nextInt(pool.size() + 1)).forEach(id -> truth.put(id, random.nextInt(4)));
            int k = 1 + random.nextInt(16);
            String at = "query " + query + ": " + ranking + " against " + truth + ", k=" + k;

            RetrievalMetrics metrics = RetrievalMetrics.of(ranking, truth);
            Naive naive = new Naive(ranking, truth);

            if (naive.relevant.isEmpty()) {
                notApplicable++;
                assertThat(List.of(metrics.hitAt(k), metrics.recallAt(k), metrics.precisionAt(k),
                        metrics.reciprocalRank(), metrics.ndcgAt(k), metrics.averagePrecision(),
                        metrics.rPrecision())).as(at).allMatch(Measure.NotApplicable.class::isInstance);
                continue;
            }
            assertScore(metrics.hitAt(k), naive.hit(k), "hit " + at);
            assertScore(metrics.recallAt(k), naive.recall(k), "recall " + at);
            assertScore(metrics.precisionAt(k), naive.precision(k), "precision " + at);
            assertScore(metrics.reciprocalRank(), naive.reciprocalRank(), "reciprocal rank " + at);
            assertScore(metrics.ndcgAt(k), naive.ndcg(k), "nDCG " + at);
            assertScore(metrics.averagePrecision(), naive.averagePrecision(), "average precision " + at);
            assertScore(metrics.rPrecision(), naive.rPrecision(), "R-precision " + at);
        }
        assertThat(notApplicable).as("queries without a relevant passage").isBetween(QUERIES / 20, QUERIES / 2);
    }

    @Test
    void everyMetricAgreesWithTrecEvalOnAThousandRandomQueries() throws IOException {
        List<RetrievalMetricsTest.Row> rows = RetrievalMetricsTest.rows("trec-eval-random.csv");

        assertThat(rows).hasSize(1_000);
        assertThat(rows).allSatisfy(row -> RetrievalMetricsTest.assertRow(row, 0.5e-4 + 1e-12));
    }

    @Test
    void averagePrecisionOverVerdictsEqualsTheTruthBasedOneWhenEveryRelevantPassageWasRetrieved() {
        Random random = new Random(7);
        for (int query = 0; query < QUERIES; query++) {
            boolean[] verdicts = new boolean[1 + random.nextInt(12)];
            List<String> ranking = new ArrayList<>();
            Map<String, Integer> truth = new HashMap<>();
            for (int rank = 0; rank < verdicts.length; rank++) {
                verdicts[rank] = random.nextBoolean();
                ranking.add("p" + rank);
                truth.put("p" + rank, verdicts[rank] ? 1 : 0);
            }
            Measure overTruth = RetrievalMetrics.of(ranking, truth).averagePrecision();

            Measure overVerdicts = RetrievalMetrics.averagePrecision(verdicts);

            if (overTruth instanceof Measure.Score score) {
                assertThat(overVerdicts).isEqualTo(score);
            }
            else {
                assertThat(overVerdicts).as("no relevant verdict: a real 0").isEqualTo(new Measure.Score(0.0));
            }
        }
    }

    private static void assertScore(Measure actual, double expected, String description) {
        assertThat(actual).as(description).isInstanceOfSatisfying(Measure.Score.class,
                score -> assertThat(score.value()).as(description).isCloseTo(expected, within(1e-12)));
    }

    /** The definitions read literally, with no care for speed. */
    private static final class Naive {

        final List<String> ranking;
        final Map<String, Integer> truth;
        final List<String> relevant = new ArrayList<>();

        Naive(List<String> ranking, Map<String, Integer> truth) {
            this.ranking = ranking;
            this.truth = truth;
            truth.forEach((id, grade) -> {
                if (grade > 0) {
                    relevant.add(id);
                }
            });
        }

        List<String> top(int k) {
            return ranking.subList(0, Math.min(k, ranking.size()));
        }

        long relevantIn(List<String> passages) {
            return passages.stream().filter(relevant::contains).count();
        }

        double hit(int k) {
            return relevantIn(top(k)) > 0 ? 1 : 0;
        }

        double recall(int k) {
            return (double) relevantIn(top(k)) / relevant.size();
        }

        double precision(int k) {
            return (double) relevantIn(top(k)) / k;
        }

        double reciprocalRank() {
            return relevant.stream().mapToInt(ranking::indexOf).filter(index -> index >= 0)
                    .mapToDouble(index -> 1.0 / (index + 1)).max().orElse(0);
        }

        double ndcg(int k) {
            List<Integer> ideal = new ArrayList<>(relevant.stream().map(truth::get).toList());
            ideal.sort(Comparator.reverseOrder());
            double dcg = 0;
            List<String> top = top(k);
            for (int rank = 1; rank <= top.size(); rank++) {
                dcg += truth.getOrDefault(top.get(rank - 1), 0) / (Math.log(rank + 1) / Math.log(2));
            }
            double idcg = 0;
            for (int rank = 1; rank <= Math.min(k, ideal.size()); rank++) {
                idcg += ideal.get(rank - 1) / (Math.log(rank + 1) / Math.log(2));
            }
            return dcg / idcg;
        }

        double averagePrecision() {
            double sum = 0;
            for (String id : relevant) {
                int index = ranking.indexOf(id);
                if (index >= 0) {
                    sum += precision(index + 1);
                }
            }
            return sum / relevant.size();
        }

        double rPrecision() {
            return precision(relevant.size());
        }
    }
}
