package dev.agentarena.junit.engine.scoring;

import java.util.Locale;
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

    /**
     * Validates the name: it names a test, so it must hold visible text (JUnit refuses a unique id or report entry
     * that is blank or only control characters). A scorer that returns a blank name is in error, never silently
     * dropped.
     *
     * @throws IllegalArgumentException for a blank name
     */
    public NamedScore {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.trim().isEmpty()) {
            StringBuilder shown = new StringBuilder();
            name.chars().forEach(c -> shown.append(c == ' ' ? " " : String.format(Locale.ROOT, "\\u%04X", c)));
            throw new IllegalArgumentException("a score name must not be blank, but was \"" + shown + "\"");
        }
    }

    /** The grade, unless the scorer abstained. */
    public Optional<ScoreResult> grade() {
        return Optional.ofNullable(result);
    }
}
