package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.platform.commons.annotation.Testable;

/**
 * Marks a method that grades one output.
 *
 * <p>Parameters are matched by type ({@link EvalCase}, {@link ScoringContext}, {@link TaskOutput}) and then by
 * name: {@code output}, {@code input}, {@code reference} or {@code expected}, {@code metadata}, {@code tags},
 * {@code id}. Names need the class compiled with {@code -parameters} (Maven:
 * {@code <maven.compiler.parameters>true</maven.compiler.parameters>}); without it, a parameter whose type does not
 * say what it is fails the eval at discovery, naming the method and the parameter, rather than being guessed.
 *
 * <p>Return a {@code double} or {@code float} in [0, 1], a {@code boolean}, a {@link ScoreResult}, {@code null} for
 * "not applicable", a {@code List<ScoreResult>} of named scores, a {@code Map<String, Number>} of named scores, or
 * nothing ({@code void}): then an {@link AssertionError} scores 0 with its message as the reason.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Testable
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Scorer {

    /** The score name; defaults to the method name. */
    String value() default "";

    /** The score at or above which a plain number counts as passed. */
    double threshold() default ScoreResult.DEFAULT_THRESHOLD;

    /**
     * Whether to grade a conversation case turn by turn: the method is called once per turn, with the turn's answer as
     * its {@code output}, the turn's user message as its {@code input} and the turn in
     * {@link ScoringContext#turn()}; its test gets the mean of the turns' scores, failed if any turn failed, with
     * every turn's score in the reason and in the result's {@code turn_scores}. A single-turn case is graded once, as
     * always. The scorer option {@code per_turn} (any scorer's, a class's and the catalogue's too) wins over this.
     */
    boolean perTurn() default false;
}
