package dev.agentarena.junit.engine.reporting.agreement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.results.Decimals;

/**
 * {@code arena.gates.min-agreement[.<scorer>]}: the least Cohen's kappa a scorer must reach against people's labels,
 * so that a judge that drifted away from the team's judgement fails the build rather than quietly re-ranking models.
 * The scorer's own key wins over the general one.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class AgreementGate {

    private final Double general;
    private final Map<String, Double> byScorer;

    private AgreementGate(Double general, Map<String, Double> byScorer) {
        this.general = general;
        this.byScorer = byScorer;
    }

    /**
     * The gate of a run's {@code arena.gates.*} settings (other gates' keys are ignored).
     *
     * @throws ConfigurationException naming the key when a value is not a number in [-1, 1]
     */
    public static AgreementGate from(Map<String, String> gateSettings) {
        Double general = null;
        Map<String, Double> byScorer = new TreeMap<>();
        for (Map.Entry<String, String> entry : gateSettings.entrySet()) {
            String key = entry.getKey();
            if (key.equals(Constants.GATES_MIN_AGREEMENT)) {
                general = value(key, entry.getValue());
            }
            else if (key.startsWith(Constants.GATES_MIN_AGREEMENT + ".")) {
                byScorer.put(key.substring(Constants.GATES_MIN_AGREEMENT.length() + 1), value(key, entry.getValue()));
            }
        }
        return new AgreementGate(general, byScorer);
    }

    private static double value(String key, String text) {
        double value;
        try {
            value = Double.parseDouble(text.strip());
        }
        catch (NumberFormatException | NullPointerException e) {
            throw new ConfigurationException(key + " must be a number (Cohen's kappa, -1 to 1), but was \"" + text
                    + "\"");
        }
        if (!(value >= -1 && value <= 1)) {
            throw new ConfigurationException(key + " must be a Cohen's kappa between -1 and 1, but was " + text);
        }
        return value;
    }

    /** The least kappa a scorer must reach, if any gate concerns it. */
    public Optional<Double> minimum(String scorer) {
        return Optional.ofNullable(byScorer.getOrDefault(scorer, general));
    }

    /**
     * One line for each scorer key that names no scorer of the run: such a gate would check nothing, without a word
     * ({@code arena.gates.min-agreement.no_such_scorer=0.6}: a misspelt scorer, a scorer renamed since).
     *
     * @param scorers the names of every scorer the run's evals scored with
     */
    public List<String> unmatched(Set<String> scorers) {
        List<String> lines = new ArrayList<>();
        byScorer.forEach((scorer, minimum) -> {
            if (!scorers.contains(scorer)) {
                lines.add(Constants.GATES_MIN_AGREEMENT + "." + scorer + "=" + Decimals.shortest(minimum)
                        + " gates nothing: no eval of this run has a scorer '" + scorer + "' (its scorers: "
                        + (scorers.isEmpty() ? "none" : String.join(", ", new TreeSet<>(scorers))) + ")");
            }
        });
        return lines;
    }

    /** The key that sets a scorer's minimum, for messages. */
    public String key(String scorer) {
        return byScorer.containsKey(scorer) ? Constants.GATES_MIN_AGREEMENT + "." + scorer
                : Constants.GATES_MIN_AGREEMENT;
    }

    /**
     * Why a scorer fails the gate: {@code <eval>: scorer 'llm_judge' agrees with people at kappa 0.31 (95% CI
     * 0.05–0.58, n=24), below arena.gates.min-agreement=0.6; it disagrees with them on 7 of 24 ...}, saying what
     * to change; empty when it passes or no gate concerns it. An
     * undefined kappa (every verdict the same on both sides) fails a gate: it shows no agreement.
     */
    public Optional<String> failure(String eval, ScorerAgreement agreement) {
        Optional<Double> minimum = minimum(agreement.scorer());
        if (minimum.isEmpty()) {
            return Optional.empty();
        }
        double kappa = agreement.kappa().value();
        if (!Double.isNaN(kappa) && kappa >= minimum.get()) {
            return Optional.empty();
        }
        return Optional.of(eval + ": scorer '" + agreement.scorer() + "' agrees with people at "
                + AgreementText.kappa(agreement) + ", below " + key(agreement.scorer()) + "="
                + Decimals.shortest(minimum.get()) + "; it disagrees with them on " + agreement.disagreementCount()
                + " of " + agreement.n() + " labelled outputs (the agreement table and leaderboard.json list them):"
                + " change the scorer (its rubric, prompt or judge model) where it is wrong, or label more outputs"
                + " when the interval is too wide to tell");
    }
}
