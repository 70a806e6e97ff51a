package dev.agentarena.junit.engine.models;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScorerOptionValues;

/**
 * Which case and repeat a model call is made for. Connectors never see it; simulated models draw per case and
 * repeat and answer in the shape the case's scorer options ask for, the {@code recorded} model answers with the
 * case's output, and recordings are filed under it.
 *
 * @param evalCase the case, or {@code null} for a call that belongs to no case
 * @param repeat the repeat index, from 0
 * @param scorerOptions the options each scorer reads for this case (case, eval and run merged), by scorer name
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ModelCall(EvalCase evalCase, int repeat, Function<String, ScorerOptionValues> scorerOptions) {

    /** A call that belongs to no case. */
    public static final ModelCall NONE = new ModelCall(null, 0);

    /** Validates the options. */
    public ModelCall {
        Objects.requireNonNull(scorerOptions, "scorerOptions");
    }

    /** A call for a case whose scorer options are not known: the simulated models read the run's. */
    public ModelCall(EvalCase evalCase, int repeat) {
        this(evalCase, repeat, scorer -> null);
    }

    /** The case, if the call belongs to one. */
    public Optional<EvalCase> forCase() {
        return Optional.ofNullable(evalCase);
    }

    /** The options the scorer reads for this case, if the engine said. */
    public Optional<ScorerOptionValues> optionsOf(String scorer) {
        return Optional.ofNullable(scorerOptions.apply(scorer));
    }
}
