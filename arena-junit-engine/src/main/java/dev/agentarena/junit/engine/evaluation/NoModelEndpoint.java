package dev.agentarena.junit.engine.evaluation;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The model of a configuration that runs on none (a retrieval-only eval): it costs nothing and answers no call; a
 * call is an error of its case that says how to name a model.
 */
final class NoModelEndpoint implements ModelEndpoint {

    private final String eval;
    private final String configuration;

    NoModelEndpoint(String eval, String configuration) {
        this.eval = eval;
        this.configuration = configuration;
    }

    @Override
    public ModelAnswer answer(ModelRequest request, ModelCall call) {
        throw new ModelCallException("configuration '" + configuration + "' of " + eval + " runs on no model, so its "
                + "task cannot call one; name the model with @UseModels or " + Constants.MODELS
                + ", or with the configuration's setting model=<key>");
    }

    @Override
    public void close() {
        // nothing to release
    }
}
