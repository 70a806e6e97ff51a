package dev.agentarena.junit.engine.models.recording;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/** Returns the case's recorded output as text (JSON for structured outputs), at no cost and no latency. */
final class RecordedModel implements ModelClient, ModelEndpoint {

    @Override
    public Completion complete(ModelRequest request) {
        return answer(request, ModelCall.NONE).completion();
    }

    @Override
    public ModelAnswer answer(ModelRequest request, ModelCall call) {
        // asked once a case: plain checks, no Optional or error-building lambda per call
        EvalCase evalCase = call.evalCase();
        if (evalCase == null) {
            throw new ModelCallException("the '" + RecordedModelProvider.KEY + "' model only answers requests made for "
                    + "an eval case; it has nothing recorded for: " + abbreviate(request.prompt()));
        }
        Object output = evalCase.recordedOutput().orElse(null);
        if (output == null) {
            throw new ModelCallException("case '" + evalCase.id() + "' has no recorded output; " + (evalCase
                    .recordedSpans().isEmpty() ? "add an `output` field to its dataset row" : "its trace records no "
                            + "final answer: no output.value, gen_ai.output.messages or completion on its root or "
                            + "model spans (a trace of no conversation, or an app that puts no text on its spans)"));
        }
        return ModelAnswer.live(Completion.of(Json.text(output)));
    }

    /** The row's output: nothing to wait on. */
    @Override
    public boolean answersAtOnce() {
        return true;
    }

    @Override
    public void close() {
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
