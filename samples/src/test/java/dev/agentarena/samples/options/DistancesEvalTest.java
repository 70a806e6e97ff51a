package dev.agentarena.samples.options;

import java.util.Locale;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScorerOption;
import dev.agentarena.junit.Task;

/**
 * Miles to kilometres by the team's {@link MilesToKm}: {@code numeric} allows 0.05 km for this eval, and the marathon
 * case of {@code distances.jsonl} allows itself 1 km in its own {@code scorer_options}, where the rounded factor adds
 * up. The run's, the eval's and the case's options meet here: the case's win.
 */
@Eval(value = "distances", scorers = "numeric")
@ScorerOption(scorer = "numeric", name = "tolerance", value = "0.05")
@EvalDataset("distances.jsonl")
class DistancesEvalTest {

    @Task
    String convert(double input) {
        return String.format(Locale.ROOT, "%.2f km", MilesToKm.convert(input));
    }
}
