package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.List;

/**
 * Says in words what a model's errored results were, keeping apart the two things an error can be: the case's model
 * call failed (the model, the task, a hook or an unreadable row; every scorer of the case then has an error result),
 * or a scorer threw on an output it was given. Errored results are kept out of accuracy, so a reader must see them
 * next to it: a scorer that throws on every case would otherwise leave its model looking perfect.
 */
final class ErrorSummary {

    private ErrorSummary() {
    }

    /** The warnings about a model's errored results; none when it has none. */
    static List<String> warnings(ModelEntry model) {
        List<String> warnings = new ArrayList<>();
        if (model.errors() == 0) {
            return warnings;
        }
        if (model.errorsOutnumberScored()) {
            warnings.add(model.model() + ": " + model.errorsOutnumberScoredText() + ": its accuracy covers the "
                    + "minority of its results");
        }
        List<String> parts = new ArrayList<>();
        if (model.callErrors() > 0) {
            int results = model.errors() - model.scorerErrors();
            parts.add(count(model.callErrors(), "model call") + " failed before scoring (the model, the task, a hook or an unreadable row): " + count(results, "result"));
        }
        if (model.scorerErrors() > 0) {
            StringBuilder byScorer = new StringBuilder();
            for (ScorerEntry scorer : model.scorers()) {
                if (scorer.scorerErrors() > 0) {
                    byScorer.append(byScorer.length() == 0 ? "" : ", ").append(scorer.scorer()).append(' ')
                            .append(scorer.scorerErrors());
                }
            }
            parts.add(count(model.scorerErrors(), "scorer error") + " (" + byScorer + ")");
        }
        warnings.add(model.model() + ": " + count(model.errors(), "errored result") + ", kept out of accuracy: "
                + String.join("; ", parts));
        for (ScorerEntry scorer : model.scorers()) {
            if (scorer.results() > 0 && scorer.errors() == scorer.results()) {
                warnings.add(model.model() + " / " + scorer.scorer() + ": every result errored (" + scorer.errors()
                        + "), so it has no accuracy" + (model.scorers().size() > 1
                                ? " and the model's accuracy comes from its other scorers alone" : ""));
            }
        }
        return warnings;
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
