package dev.agentarena.junit.engine.scoring;

import java.util.ArrayList;
import java.util.List;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.scoring.OutputScorer;

/** Runs a {@link OutputScorer} implementation; an {@link AssertionError} inside it scores 0 with its message. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ClassScorerDefinition implements ScorerDefinition {

    private final OutputScorer scorer;
    private final String version;

    /** Wraps the scorer; the version is a digest of its class's code. */
    public ClassScorerDefinition(OutputScorer scorer) {
        this.scorer = scorer;
        this.version = ScorerVersions.of(scorer.getClass());
    }

    /** The wrapped scorer. */
    public OutputScorer scorer() {
        return scorer;
    }

    @Override
    public String name() {
        return scorer.name();
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public List<NamedScore> score(String output, ScoringContext context) {
        ScoreResult result;
        try {
            result = scorer.score(output, context.testCase().reference(), context);
        }
        catch (AssertionError e) {
            result = ScoreResult.fail(String.valueOf(e.getMessage()));
        }
        List<NamedScore> scores = new ArrayList<>();
        scores.add(new NamedScore(result == null ? name() : result.name().orElse(name()), result));
        return scores;
    }
}
