package dev.agentarena.junit.engine.scoring.declaration;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.models.simulated.AnswerShape;

/**
 * What a builtin or catalogue scorer says of itself, in the one place that says it: its name, the one-line
 * description of listings, the options it reads and at which levels each may be set, and the shape of a simulated
 * model's answer for it. The listing, the option checks and the simulated models read it; nothing else names a
 * builtin or catalogue scorer.
 *
 * @param name the scorer's name, as its class or method gives it
 * @param description one line for listings
 * @param options the options it reads, in the order its documentation lists them
 * @param answerShape what a simulated model answers for a case this scorer grades
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ScorerDeclaration(String name, String description, List<Option> options, AnswerShape answerShape) {

    /** Where an option may be set (see {@code ScorerOptionLevels}). */
    public enum Level {
        /** A case's {@code scorer_options}. */
        CASE,
        /** The eval's {@code @ScorerOption}s and its block of the configuration. */
        EVAL,
        /** {@code arena.scorers.options}. */
        RUN
    }

    /** How an option's value is read. */
    public enum Type {
        TEXT, NUMBER, WHOLE_NUMBER, BOOLEAN, TEXT_LIST, MAP
    }

    /**
     * One option.
     *
     * @param defaultValue the default as the documentation states it, or {@code "required"}, or {@code "none"}
     * @param levels where it may be set: every level, or the run's and the eval's alone for an option that decides
     *        how generated code runs or which class is loaded, which a dataset row must not
     */
    public record Option(String name, Type type, String defaultValue, Set<Level> levels) {

        /** Freezes the levels. */
        public Option {
            Objects.requireNonNull(name, "name");
            levels = Set.copyOf(levels);
        }

        /** An option every level may set. */
        public static Option of(String name, Type type, String defaultValue) {
            return new Option(name, type, defaultValue, Set.of(Level.values()));
        }

        /** An option only the run and the eval may set. */
        public static Option notPerCase(String name, Type type, String defaultValue) {
            return new Option(name, type, defaultValue, Set.of(Level.EVAL, Level.RUN));
        }
    }

    /** Freezes the options. */
    public ScorerDeclaration {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(answerShape, "answerShape");
        options = List.copyOf(options);
    }

    /** A declaration with these options. */
    public static ScorerDeclaration of(String name, String description, AnswerShape answerShape, Option... options) {
        return new ScorerDeclaration(name, description, List.of(options), answerShape);
    }

    /** The option of that name, if the scorer reads it. */
    public Optional<Option> option(String optionName) {
        return options.stream().filter(option -> option.name().equals(optionName)).findFirst();
    }
}
