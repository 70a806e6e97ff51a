package dev.agentarena.junit.engine.reporting.report;

import java.util.Locale;

import org.apiguardian.api.API;

/**
 * What became of one case's result on one model and scorer between two runs, as the report's compare mode and
 * {@link CompareRuns} show it. Repeats are reduced first ({@link Aggregate}): the mean score and the majority verdict.
 *
 * <p>Results rank passed above failed above errored (an error is no score at all, so it is below a low score); a
 * result that fell in rank regressed, one that rose improved; in the same rank, a mean score that fell (or rose) by
 * more than the tolerance regressed (or improved). A result not applicable on either side is unchanged, except that
 * one that errored now regressed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum Change {

    /** Worse than before. */
    REGRESSED,
    /** Better than before. */
    IMPROVED,
    /** Neither. */
    UNCHANGED,
    /** Only in the new run. */
    NEW,
    /** Only in the previous run. */
    REMOVED;

    /** The word the report and the console use. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * One side of a comparison: one key's results in one run, repeats added up.
     *
     * @param results how many results (repeats)
     * @param scored how many had a score that counts (passed or failed)
     * @param passed how many of those passed
     * @param errors how many ended in an error
     * @param scoreSum the sum of the counted scores
     */
    public record Aggregate(int results, int scored, int passed, int errors, double scoreSum) {

        /** The mean counted score, {@code NaN} when none counted. */
        public double mean() {
            return scored == 0 ? Double.NaN : scoreSum / scored;
        }

        /** 2 passed (a strict majority of the counted repeats), 1 failed, 0 errored, -1 not applicable. */
        public int rank() {
            if (scored > 0) {
                return passed * 2 > scored ? 2 : 1;
            }
            return errors > 0 ? 0 : -1;
        }
    }

    /**
     * Classifies one key.
     *
     * @param before the previous run's results, {@code null} when it had none
     * @param after the new run's results, {@code null} when it has none
     * @param tolerance the largest fall of the mean score that is not a regression by itself
     */
    public static Change classify(Aggregate before, Aggregate after, double tolerance) {
        if (before == null && after == null) {
            throw new IllegalArgumentException("nothing to compare");
        }
        if (before == null) {
            return NEW;
        }
        if (after == null) {
            return REMOVED;
        }
        int was = before.rank();
        int now = after.rank();
        if (was < 0 || now < 0) {
            return was < 0 && now == 0 ? REGRESSED : was == 0 && now < 0 ? IMPROVED : UNCHANGED;
        }
        if (now != was) {
            return now < was ? REGRESSED : IMPROVED;
        }
        if (was >= 1) {
            double delta = after.mean() - before.mean();
            if (delta < -tolerance - 1e-12) {
                return REGRESSED;
            }
            if (delta > tolerance + 1e-12) {
                return IMPROVED;
            }
        }
        return UNCHANGED;
    }
}
