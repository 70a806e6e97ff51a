package dev.agentarena.junit.engine.models;

import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;

/**
 * Which case and repeat a model call is made for. Connectors never see it; simulated models draw per case and
 * repeat, the {@code recorded} model answers with the case's output, and recordings are filed under it.
 *
 * @param evalCase the case, or {@code null} for a call that belongs to no case
 * @param repeat the repeat index, from 0
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ModelCall(EvalCase evalCase, int repeat) {

    /** A call that belongs to no case. */
    public static final ModelCall NONE = new ModelCall(null, 0);

    /** The case, if the call belongs to one. */
    public Optional<EvalCase> forCase() {
        return Optional.ofNullable(evalCase);
    }
}
