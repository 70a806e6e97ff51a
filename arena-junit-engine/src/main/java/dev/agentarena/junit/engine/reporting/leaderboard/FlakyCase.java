package dev.agentarena.junit.engine.reporting.leaderboard;

import org.apiguardian.api.API;

/**
 * A case whose repeats disagreed.
 *
 * @param caseId the case
 * @param passed how many counted repeats passed
 * @param runs how many repeats were counted
 * @param min the lowest score
 * @param max the highest score
 * @param stddev the population standard deviation of the scores
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record FlakyCase(String caseId, int passed, int runs, double min, double max, double stddev) {

    /** max − min. */
    public double spread() {
        return max - min;
    }
}
