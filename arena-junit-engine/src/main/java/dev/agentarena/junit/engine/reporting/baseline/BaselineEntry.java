package dev.agentarena.junit.engine.reporting.baseline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.statistics.CaseScores;

/**
 * What a baseline remembers of one scorer on one model in one eval.
 *
 * @param eval the eval's name
 * @param model the model key
 * @param scorer the score name
 * @param scorerVersion the scorer's digest
 * @param n scored cases
 * @param accuracy accuracy
 * @param ciLow lower bound of its 95% interval
 * @param ciHigh upper bound
 * @param passRate pass rate
 * @param scores reduced per-case scores by case id
 * @param passed reduced per-case verdicts by case id
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record BaselineEntry(String eval, String model, String scorer, String scorerVersion, int n, double accuracy,
        double ciLow, double ciHigh, double passRate, Map<String, Double> scores, Map<String, Boolean> passed) {

    /** Sorts and freezes the per-case maps. */
    public BaselineEntry {
        scores = Collections.unmodifiableMap(new TreeMap<>(scores));
        passed = Collections.unmodifiableMap(new TreeMap<>(passed));
    }

    /** The per-case scores for a paired test; a case without a verdict counts as passed when its score is 1. */
    public CaseScores caseScores() {
        List<String> ids = new ArrayList<>(scores.keySet());
        double[] values = new double[ids.size()];
        boolean[] verdicts = new boolean[ids.size()];
        double[] weights = new double[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            values[i] = scores.get(ids.get(i));
            Boolean verdict = passed.get(ids.get(i));
            verdicts[i] = verdict == null ? values[i] >= 1.0 : verdict;
            weights[i] = 1.0;
        }
        return new CaseScores(ids.toArray(String[]::new), values, verdicts, weights);
    }

    String key() {
        return eval + " / " + model + " / " + scorer;
    }
}
