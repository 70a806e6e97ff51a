package dev.agentarena.junit.engine.results;

import org.apiguardian.api.API;

/**
 * One pairwise comparison of an {@code @Arena} eval: two models' outputs for the same case, judged in both orders, as
 * written to {@code arena-comparisons.jsonl}.
 *
 * <p>Each order's verdict is said for the models: {@code a} (model A's output won), {@code b} or {@code tie};
 * {@code null} when that call failed. The comparison's {@code score} is model A's share of the two verdicts (1 when
 * both prefer A, 0.75 a win and a tie, 0.5 a tie or verdicts that flip with the order, 0 when both prefer B). A
 * verdict that flips with the order ({@code flipped}: each order preferred the answer in the same position) is a tie
 * and a position-bias event.
 *
 * @param eval the eval's name
 * @param dataset the dataset's name
 * @param caseId the case id
 * @param modelA the first model of the pair, in the eval's model order
 * @param modelB the second
 * @param judge the judge's model key
 * @param abFirst the verdict with A's output shown first: {@code a}, {@code b}, {@code tie}, or {@code null}
 * @param baFirst the verdict with B's output shown first, said for the models as well
 * @param score A's share, in [0, 1]; {@code null} when the comparison is an error
 * @param flipped whether the verdict flipped with the order
 * @param lengthA the length of A's output, in characters
 * @param lengthB the length of B's output, in characters
 * @param reason the judge's rationales, or why there is no comparison
 * @param error what went wrong with a judge call, or {@code null}
 * @param costUsd what the judge calls cost
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ArenaComparison(String eval, String dataset, String caseId, String modelA, String modelB, String judge,
        String abFirst, String baFirst, Double score, boolean flipped, int lengthA, int lengthB, String reason,
        String error, double costUsd) {

    /** Model A won, B won, or neither. */
    public enum Outcome {
        A_WINS, B_WINS, TIE
    }

    /** Whether the judge failed to give both verdicts: the comparison counts as an error, not a tie. */
    public boolean isError() {
        return score == null;
    }

    /** The outcome for the win, tie and loss counts; {@code null} for an error. */
    public Outcome outcome() {
        if (score == null) {
            return null;
        }
        return score > 0.5 ? Outcome.A_WINS : score < 0.5 ? Outcome.B_WINS : Outcome.TIE;
    }
}
