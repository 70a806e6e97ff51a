package dev.agentarena.junit.engine.scoring.builtin;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code exact_match}: normalised string equality, insensitive to case, punctuation and whitespace by default.
 *
 * <p>Options: {@code case_sensitive} (false), {@code ignore_punctuation} (true), {@code ignore_whitespace} (true).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ExactMatchScorer implements OutputScorer {

    @Override
    public String name() {
        return "exact_match";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        if (reference == null) {
            return null;
        }
        TextNormalizer normalizer = TextNormalizer.from(context.options());
        String expected = normalizer.normalize(Json.text(reference));
        String actual = normalizer.normalize(output);
        if (expected.equals(actual)) {
            return ScoreResult.pass("output equals the reference");
        }
        return ScoreResult.fail("expected '" + Abbreviations.abbreviate(expected) + "' but got '"
                + Abbreviations.abbreviate(actual) + "'");
    }
}
