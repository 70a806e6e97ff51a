package dev.agentarena.junit.engine.reporting.statistics;

import java.util.Arrays;
import java.util.List;

import org.apiguardian.api.API;

/**
 * Reduced per-case scores and verdicts, sorted by case id, for paired comparison and baselines.
 *
 * <p>Parallel arrays rather than one object per case: a run can hold cases × scorers × models of them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseScores {

    /**
     * Case ids kept elsewhere and read by position: a leaderboard of a million cases keeps them as bytes and makes a
     * string only of an id that is asked for.
     */
    public interface Ids {

        /** The id at position {@code i}. */
        String id(int i);

        /** Compares the id at {@code i} with {@code other}'s at {@code j}, as strings compare (the sign tells). */
        default int compare(int i, Ids other, int j) {
            return id(i).compareTo(other.id(j));
        }
    }

    /** {@code null} when the ids are {@link #lazyIds}. */
    private final String[] ids;
    private final Ids lazyIds;
    private final double[] scores;
    private final boolean[] passed;
    private final double[] weights;

    /**
     * @param ids case ids, sorted ascending, no duplicates
     * @param scores the reduced score of each case
     * @param passed the reduced verdict of each case
     * @param weights the weight of each case
     */
    public CaseScores(String[] ids, double[] scores, boolean[] passed, double[] weights) {
        this(ids.clone(), scores.clone(), passed.clone(), weights.clone(), true);
    }

    private CaseScores(String[] ids, double[] scores, boolean[] passed, double[] weights, boolean check) {
        if (scores.length != ids.length || passed.length != ids.length || weights.length != ids.length) {
            throw new IllegalArgumentException("ids, scores, verdicts and weights differ in length");
        }
        if (check) {
            checkSorted(ids);
        }
        else {
            assert checkSorted(ids);
        }
        this.ids = ids;
        this.lazyIds = null;
        this.scores = scores;
        this.passed = passed;
        this.weights = weights;
    }

    private CaseScores(Ids ids, double[] scores, boolean[] passed, double[] weights) {
        if (passed.length != scores.length || weights.length != scores.length) {
            throw new IllegalArgumentException("scores, verdicts and weights differ in length");
        }
        this.ids = null;
        this.lazyIds = ids;
        this.scores = scores;
        this.passed = passed;
        this.weights = weights;
    }

    /**
     * The cases of arrays taken as they are, neither checked nor copied: for the leaderboard's aggregation, which builds
     * a million cases' arrays in id order and lets go of them, and so does not pay for a copy and a check of each.
     *
     * @param ids case ids, sorted ascending, no duplicates (checked only with assertions enabled)
     */
    public static CaseScores adopt(String[] ids, double[] scores, boolean[] passed, double[] weights) {
        return new CaseScores(ids, scores, passed, weights, false);
    }

    /**
     * As {@link #adopt(String[], double[], boolean[], double[])}, with ids read from {@code ids} when asked for.
     *
     * @param ids the case ids by position, sorted ascending, no duplicates (not checked)
     */
    public static CaseScores adopt(Ids ids, double[] scores, boolean[] passed, double[] weights) {
        return new CaseScores(ids, scores, passed, weights);
    }

    private static boolean checkSorted(String[] ids) {
        for (int i = 1; i < ids.length; i++) {
            if (ids[i - 1].compareTo(ids[i]) >= 0) {
                throw new IllegalArgumentException("case ids must be sorted and unique: " + ids[i - 1] + ", " + ids[i]);
            }
        }
        return true;
    }

    /** Sorts the cases by id. */
    public static CaseScores sorted(List<String> ids, double[] scores, boolean[] passed, double[] weights) {
        Integer[] order = new Integer[ids.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> ids.get(a).compareTo(ids.get(b)));
        String[] sortedIds = new String[order.length];
        double[] sortedScores = new double[order.length];
        boolean[] sortedPassed = new boolean[order.length];
        double[] sortedWeights = new double[order.length];
        for (int i = 0; i < order.length; i++) {
            sortedIds[i] = ids.get(order[i]);
            sortedScores[i] = scores[order[i]];
            sortedPassed[i] = passed[order[i]];
            sortedWeights[i] = weights[order[i]];
        }
        return new CaseScores(sortedIds, sortedScores, sortedPassed, sortedWeights);
    }

    /** How many cases. */
    public int size() {
        return scores.length;
    }

    /** The i-th case id. */
    public String id(int i) {
        return ids != null ? ids[i] : lazyIds.id(i);
    }

    /** Compares the i-th case id with the j-th of {@code other}, as strings compare (the sign tells). */
    public int compareIds(int i, CaseScores other, int j) {
        if (lazyIds != null && other.lazyIds != null) {
            return lazyIds.compare(i, other.lazyIds, j);
        }
        return id(i).compareTo(other.id(j));
    }

    /** The i-th reduced score. */
    public double score(int i) {
        return scores[i];
    }

    /** The i-th reduced verdict. */
    public boolean passed(int i) {
        return passed[i];
    }

    /** The i-th case weight. */
    public double weight(int i) {
        return weights[i];
    }

    /** Whether every score is 0 or 1. */
    public boolean binary() {
        for (double score : scores) {
            if (score != 0.0 && score != 1.0) {
                return false;
            }
        }
        return true;
    }

    /** Whether every weight is the same. */
    public boolean uniformWeights() {
        for (double weight : weights) {
            if (weight != weights[0]) {
                return false;
            }
        }
        return true;
    }

    public double[] scores() {
        return scores;
    }

    public double[] weights() {
        return weights;
    }
}
