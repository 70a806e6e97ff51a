package dev.agentarena.junit.engine.reporting.agreement;

import java.util.List;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.statistics.Estimate;

/**
 * How far one scorer of one eval agrees with people, over the outputs both graded: what tells a team whether a judge
 * can be trusted, and what {@code arena.gates.min-agreement} gates.
 *
 * @param scorer the score name
 * @param n how many labelled outputs the scorer graded (pairs)
 * @param percentAgreement the share of pairs with the same verdict, with its bootstrap interval
 * @param kappa Cohen's kappa of the verdicts, with its bootstrap interval ({@code NaN} when undefined)
 * @param confusion {@code [person][scorer]}, index 0 pass and 1 fail
 * @param graded how many pairs carry a graded score on both sides (the person's {@code human_score})
 * @param spearman Spearman's rho of the graded pairs, with its bootstrap interval
 * @param meanAbsoluteError the mean absolute difference of the graded pairs, with its bootstrap interval
 * @param disagreements the first pairs whose verdicts differ, in the order the results came
 * @param disagreementCount how many pairs disagree in all
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public record ScorerAgreement(String scorer, int n, Estimate percentAgreement, Estimate kappa, long[][] confusion,
        int graded, Estimate spearman, Estimate meanAbsoluteError, List<Disagreement> disagreements,
        int disagreementCount) {

    /** Freezes the list. */
    public ScorerAgreement {
        disagreements = List.copyOf(disagreements);
    }

    /**
     * One output on which the scorer and the person gave different verdicts.
     *
     * @param caseId the case
     * @param model the model
     * @param repeat the repeat
     * @param scorerSaid the scorer's verdict and score ({@code fail 0.20})
     * @param personSaid the person's verdict, score and note ({@code pass 0.90 "right amount"})
     * @param reason the scorer's reason
     * @param label where the label is ({@code file:line})
     */
    public record Disagreement(String caseId, String model, int repeat, String scorerSaid, String personSaid,
            String reason, String label) {
    }
}
