package dev.agentarena.junit.engine.results;

import org.apiguardian.api.API;

/**
 * The order a dataset's case ids increase in, for the two tables that keep every id of a run: the duplicate check
 * while rows are read, and the leaderboard's case index while it is built. Datasets list their ids in increasing order
 * almost always, and an id greater than every id before it cannot be one of them, so both keep increasing ids in a
 * sorted run (one comparison per id) and only the others in a table; they must agree on what increasing means and on
 * which ids never join the run.
 *
 * <p>Increasing is first taken both ways, as the characters compare ({@code q10 < q9}) and shorter first ({@code q9 <
 * q10}, then as characters); the first id that increases in one way only settles which, so zero-padded, numbered and
 * alphabetical ids all stay in the run. One instance follows one run.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseIdOrder {

    /** How the run increases: while no id is longer than the one before, both ways agree. */
    private enum Way {
        BOTH, CHARACTERS, SHORTER_FIRST
    }

    private Way way = Way.BOTH;

    /**
     * Whether an id comes after the run's last one, settling the order on the first id that tells.
     *
     * @param characters the sign of comparing the last id with the next char by char (or in units that keep that
     *        order)
     * @param lengths the sign of comparing their lengths (in the same units)
     */
    public boolean increases(int characters, int lengths) {
        if (way == Way.BOTH && lengths != 0 && characters < 0 != lengths < 0) {
            // the ids so far are sorted both ways: the way this one keeps going is the run's
            way = characters < 0 ? Way.CHARACTERS : Way.SHORTER_FIRST;
        }
        return compare(characters, lengths) < 0;
    }

    /** Compares two ids in the run's order, from their {@link #increases} signs: what a search of the run uses. */
    public int compare(int characters, int lengths) {
        return way == Way.SHORTER_FIRST && lengths != 0 ? lengths : characters;
    }

    /** The id the engine gives the row that repeats {@code id}, the {@code n}th ({@code n >= 2}) it tries. */
    public static String duplicateId(String id, int n) {
        return id + "#" + n;
    }

    /**
     * Whether the id has the shape of one the engine makes up for a duplicate row ({@link #duplicateId}, {@code x#2}):
     * such an id is out of the dataset's order wherever it comes ({@code case-0017#2} after {@code case-0999},
     * {@code q7#2} before {@code q50}), so it never joins a run, which it would stop, but the table. So a table holds
     * the ids that did not increase, all smaller than the run's last, and ids of this shape: an increasing id of
     * another shape is new without a look at it.
     */
    public static boolean madeUp(String id) {
        if (id.indexOf('#') < 0) {
            // most ids: one vectorized scan, not a loop over the trailing digits
            return false;
        }
        int end = id.length();
        int digits = end;
        while (digits > 0 && id.charAt(digits - 1) >= '0' && id.charAt(digits - 1) <= '9') {
            digits--;
        }
        return digits < end && digits > 0 && id.charAt(digits - 1) == '#';
    }
}
