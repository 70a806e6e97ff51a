package dev.agentarena.junit.engine.scoring;

import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;

/**
 * One score a scorer produced, under its name; an empty result means "not applicable".
 *
 * @param name the score name
 * @param result the grade, or {@code null} when the scorer abstained
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record NamedScore(String name, ScoreResult result) {

    /** Validates the name. */
    public NamedScore {
        Objects.requireNonNull(name, "name");
    }

    /** The grade, unless the scorer abstained. */
    public Optional<ScoreResult> grade() {
        return Optional.ofNullable(result);
    }
}
