package dev.agentarena.junit.engine.scoring.retrieval;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apiguardian.api.API;

/**
 * The deterministic retrieval metrics of one query, as trec_eval defines them: hit@k ({@code success}), recall@k,
 * precision@k ({@code P}), reciprocal rank, nDCG@k ({@code ndcg_cut}), average precision ({@code map}) and
 * R-precision ({@code Rprec}); the formulas and edge cases are in {@code docs/reference/retrieval-metrics.md}.
 *
 * <p>The rank of a passage is its place in the list as retrieved, never re-sorted by a retriever score. Every value
 * is a {@link Measure}: a score in [0, 1], or not applicable with its reason when the truth names no relevant
 * passage; never NaN. Each metric is one pass over at most the ranking's first k (or R) passages.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RetrievalMetrics {

    /** The grade of the passage at each rank (index 0 is rank 1), 0 for a passage the truth does not call relevant. */
    private final int[] gradeAtRank;

    /** R: how many passages the truth calls relevant (grade above 0). */
    private final int relevantTotal;

    /** The truth's positive grades, highest first: the ideal ranking nDCG divides by. */
    private final int[] idealGrades;

    private RetrievalMetrics(int[] gradeAtRank, int[] idealGrades) {
        this.gradeAtRank = gradeAtRank;
        this.idealGrades = idealGrades;
        this.relevantTotal = idealGrades.length;
    }

    /**
     * The metrics of one ranking against its truth.
     *
     * @param ranking the retrieved passages' ids, first retrieved first; each id at most once
     * @param truth the relevant passages' grades: above 0 relevant (1 when ungraded, higher for more relevant), 0
     *     judged not relevant, as a passage the truth leaves out
     * @throws IllegalArgumentException for an id retrieved twice (naming it and both ranks), a null id, or a grade
     *     that is missing or negative (naming its passage)
     */
    public static RetrievalMetrics of(List<String> ranking, Map<String, Integer> truth) {
        int[] idealGrades = idealGrades(truth);
        int[] gradeAtRank = new int[ranking.size()];
        Set<String> seen = new HashSet<>(ranking.size() * 2);
        int index = 0;
        for (String id : ranking) {
            if (id == null) {
                throw new IllegalArgumentException("the passage at rank " + (index + 1) + " has no id");
            }
            if (!seen.add(id)) {
                throw new IllegalArgumentException("passage " + quoted(id) + " is retrieved twice, at ranks "
                        + (ranking.indexOf(id) + 1) + " and " + (index + 1) + ": a ranking lists each passage once, "
                        + "as trec_eval requires; drop the repeat or give each copy an id of its own");
            }
            Integer grade = truth.get(id);
            gradeAtRank[index++] = grade == null ? 0 : grade;
        }
        return new RetrievalMetrics(gradeAtRank, idealGrades);
    }

    /**
     * Average precision over per-passage relevance verdicts, as Ragas' context precision: the mean of precision@i
     * over the ranks i whose passage was judged relevant. Here the relevant total is what the verdicts found, since
     * no truth says more: no relevant passage retrieved is a real 0, and only no passage at all is not applicable.
     *
     * @param relevantAtRank the verdict of each retrieved passage, first retrieved first
     */
    public static Measure averagePrecision(boolean[] relevantAtRank) {
        if (relevantAtRank.length == 0) {
            return new Measure.NotApplicable("average precision is not applicable: no passage was retrieved, so "
                    + "there is no verdict to average");
        }
        int relevant = 0;
        double sum = 0;
        for (int index = 0; index < relevantAtRank.length; index++) {
            if (relevantAtRank[index]) {
                relevant++;
                sum += (double) relevant / (index + 1);
            }
        }
        return new Measure.Score(relevant == 0 ? 0.0 : sum / relevant);
    }

    /** hit@k (trec_eval {@code success.k}): 1 when a relevant passage is among the first k, else 0. */
    public Measure hitAt(int k) {
        int cut = cut(k);
        if (relevantTotal == 0) {
            return notApplicable("hit@" + k);
        }
        return new Measure.Score(relevantWithin(cut) > 0 ? 1.0 : 0.0);
    }

    /** recall@k (trec_eval {@code recall.k}): the relevant passages among the first k, over R. */
    public Measure recallAt(int k) {
        int cut = cut(k);
        if (relevantTotal == 0) {
            return notApplicable("recall@" + k);
        }
        return new Measure.Score((double) relevantWithin(cut) / relevantTotal);
    }

    /** precision@k (trec_eval {@code P.k}): the relevant passages among the first k, over k, even past the list. */
    public Measure precisionAt(int k) {
        int cut = cut(k);
        if (relevantTotal == 0) {
            return notApplicable("precision@" + k);
        }
        return new Measure.Score((double) relevantWithin(cut) / k);
    }

    /** Reciprocal rank (trec_eval {@code recip_rank}): 1 over the rank of the first relevant passage, 0 if none. */
    public Measure reciprocalRank() {
        if (relevantTotal == 0) {
            return notApplicable("reciprocal rank");
        }
        for (int index = 0; index < gradeAtRank.length; index++) {
            if (gradeAtRank[index] > 0) {
                return new Measure.Score(1.0 / (index + 1));
            }
        }
        return new Measure.Score(0.0);
    }

    /**
     * nDCG@k (trec_eval {@code ndcg_cut.k}): the sum over the first k ranks of grade / log2(rank + 1), over the same
     * sum for the truth's grades ranked highest first.
     */
    public Measure ndcgAt(int k) {
        int cut = cut(k);
        if (relevantTotal == 0) {
            return notApplicable("nDCG@" + k);
        }
        double dcg = 0;
        for (int index = 0; index < Math.min(cut, gradeAtRank.length); index++) {
            if (gradeAtRank[index] > 0) {
                dcg += gradeAtRank[index] / log2(index + 2);
            }
        }
        double ideal = 0;
        for (int index = 0; index < Math.min(cut, idealGrades.length); index++) {
            ideal += idealGrades[index] / log2(index + 2);
        }
        return new Measure.Score(Math.min(1.0, dcg / ideal));
    }

    /**
     * Average precision (trec_eval {@code map}, for one query): the sum of precision@i over the ranks i of the relevant
     * passages retrieved, over R; a relevant passage not retrieved adds 0.
     */
    public Measure averagePrecision() {
        if (relevantTotal == 0) {
            return notApplicable("average precision");
        }
        int relevant = 0;
        double sum = 0;
        for (int index = 0; index < gradeAtRank.length; index++) {
            if (gradeAtRank[index] > 0) {
                relevant++;
                sum += (double) relevant / (index + 1);
            }
        }
        return new Measure.Score(sum / relevantTotal);
    }

    /** R-precision (trec_eval {@code Rprec}): precision@R, R the number of relevant passages. */
    public Measure rPrecision() {
        if (relevantTotal == 0) {
            return notApplicable("R-precision");
        }
        return new Measure.Score((double) relevantWithin(relevantTotal) / relevantTotal);
    }

    private int relevantWithin(int cut) {
        int relevant = 0;
        for (int index = 0; index < Math.min(cut, gradeAtRank.length); index++) {
            if (gradeAtRank[index] > 0) {
                relevant++;
            }
        }
        return relevant;
    }

    private static int cut(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("a cutoff k counts passages from rank 1 and must be at least 1, was "
                    + k);
        }
        return k;
    }

    private static Measure notApplicable(String metric) {
        return new Measure.NotApplicable(metric + " is not applicable: the truth names no relevant passage "
                + "(no grade above 0), so every ranking would score the same");
    }

    private static int[] idealGrades(Map<String, Integer> truth) {
        int[] grades = new int[truth.size()];
        int relevant = 0;
        for (Map.Entry<String, Integer> entry : truth.entrySet()) {
            Integer grade = entry.getValue();
            if (grade == null || grade < 0) {
                throw new IllegalArgumentException("the grade of passage " + quoted(entry.getKey()) + " is " + grade
                        + ": a grade is 0 (not relevant) or more (relevant, higher for more relevant)");
            }
            if (grade > 0) {
                grades[relevant++] = grade;
            }
        }
        int[] positive = Arrays.copyOf(grades, relevant);
        Arrays.sort(positive);
        for (int low = 0, high = positive.length - 1; low < high; low++, high--) {
            int swap = positive[low];
            positive[low] = positive[high];
            positive[high] = swap;
        }
        return positive;
    }

    private static double log2(int value) {
        return Math.log(value) / Math.log(2);
    }

    /** An id for a message: quoted, cut to its first 100 characters, control characters escaped. */
    private static String quoted(String id) {
        String shown = id.length() > 100 ? id.substring(0, 100) + "…" : id;
        StringBuilder text = new StringBuilder("'");
        shown.codePoints().forEach(point -> {
            if (Character.isISOControl(point)) {
                text.append(String.format("\\u%04x", point));
            }
            else {
                text.appendCodePoint(point);
            }
        });
        return text.append('\'').toString();
    }

    /**
     * The value of one metric for one query: a {@link Score} in [0, 1], or {@link NotApplicable} with the reason
     * (kept out of means and counts); never NaN, never a 0 standing in for "undefined".
     */
    public sealed interface Measure permits Measure.Score, Measure.NotApplicable {

        /** A value in [0, 1]; 0 is a real score (a ranking that found nothing relevant). */
        record Score(double value) implements Measure {
            public Score {
                if (!(value >= 0.0 && value <= 1.0)) {
                    throw new IllegalArgumentException("a retrieval metric lies in [0, 1], was " + value);
                }
            }
        }

        /** No value for this query, and why. */
        record NotApplicable(String reason) implements Measure {
            public NotApplicable {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }
}
