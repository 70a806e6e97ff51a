package dev.agentarena.junit.engine.scoring.builtin;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code manual}: always 0.5 and unscored; the output is collected for human grading and kept out of accuracy.
 * No options.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ManualScorer implements OutputScorer {

    @Override
    public String name() {
        return "manual";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        return ScoreResult.unscored(0.5, "collected for human grading");
    }
}
