package dev.agentarena.junit.engine.models.declared;

import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelClient;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The client of a declared model: reads the member on the first call that reaches it (never when a recording
 * answers), adapts the object it yields, and remembers a failure so that every case reports the same one without
 * calling the member again.
 */
final class DeclaredModelClient implements ModelClient {

    private final DeclaredModel model;
    private final Object instance;
    private final ModelPricing pricing;
    private ModelClient delegate;
    private RuntimeException failure;

    DeclaredModelClient(DeclaredModel model, Object instance, ModelPricing pricing) {
        this.model = model;
        this.instance = instance;
        this.pricing = pricing;
    }

    @Override
    public Completion complete(ModelRequest request) {
        return delegate().complete(request);
    }

    private synchronized ModelClient delegate() {
        if (delegate != null) {
            return delegate;
        }
        if (failure == null) {
            try {
                Object value = model.read(instance);
                delegate = Integrations.modelClient(model.key(), value, pricing).orElseThrow(
                        () -> new IllegalStateException("@EvalModel " + model.describe() + " of "
                                + model.declaringClass().getName() + " supplied a " + value.getClass().getName()
                                + ", which is not a model the engine can call: supply " + Integrations.modelTypes()));
                return delegate;
            }
            catch (RuntimeException e) {
                failure = e;
            }
        }
        throw new ModelCallException(model.key() + ": " + failure.getMessage(), failure);
    }
}
