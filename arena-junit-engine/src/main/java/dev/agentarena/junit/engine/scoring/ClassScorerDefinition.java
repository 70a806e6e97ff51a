package dev.agentarena.junit.engine.scoring;

import java.util.ArrayList;
import java.util.List;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.scoring.builtin.BuiltinScorers;
import dev.agentarena.junit.scoring.OutputScorer;

/** Runs a {@link OutputScorer} implementation; an {@link AssertionError} inside it scores 0 with its message. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ClassScorerDefinition implements ScorerDefinition {

    private final OutputScorer scorer;
    /** Asked of every scorer of every case: looked up once. */
    private final boolean computesOnly;
    // digested when first asked for: a run reads the versions of the scorers it uses, not of every builtin
    private volatile String version;

    /** Wraps the scorer; the version is a digest of its class's code. */
    public ClassScorerDefinition(OutputScorer scorer) {
        this.scorer = scorer;
        this.computesOnly = BuiltinScorers.computesOnly(scorer);
    }

    /** A builtin that computes on the output alone ({@link BuiltinScorers#computesOnly}); no other class. */
    @Override
    public boolean computesOnly() {
        return computesOnly;
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
        String digest = version;
        if (digest == null) {
            digest = ScorerVersions.of(scorer.getClass());
            version = digest;
        }
        return digest;
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
