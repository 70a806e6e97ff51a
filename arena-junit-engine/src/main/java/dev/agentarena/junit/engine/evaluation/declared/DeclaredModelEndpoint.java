package dev.agentarena.junit.engine.evaluation.declared;

import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.definition.DeclaredModel;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The model of one {@code @EvalModel} member. The member is user code: it is read on the first call that reaches the
 * model (never when a recording answers), inside that case's time-limited task, and only once; its failure is
 * remembered, so every case reports the same one without reading the member again. Calls that arrive while the
 * member is being read wait interruptibly, so a member that never returns holds each case only to its own limit; a
 * read cut off by a time limit is no answer, and the next case reads the member again.
 *
 * <p>Closing does nothing: the model belongs to the eval class that supplied it.
 */
final class DeclaredModelEndpoint implements ModelEndpoint {

    private final DeclaredModel model;
    private final Object instance;
    private final ModelPricing pricing;
    private final AtomicReference<FutureTask<ModelClient>> reading;

    DeclaredModelEndpoint(DeclaredModel model, Object instance, ModelPricing pricing) {
        this.model = model;
        this.instance = instance;
        this.pricing = pricing;
        this.reading = new AtomicReference<>(new FutureTask<>(this::adapt));
    }

    @Override
    public ModelAnswer answer(ModelRequest request, ModelCall call) {
        return ModelAnswer.live(client().complete(request));
    }

    private ModelClient client() {
        FutureTask<ModelClient> read = reading.get();
        // the first caller reads the member; later ones find it read, or wait for it
        read.run();
        try {
            return read.get();
        }
        catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (interrupted(cause)) {
                reading.compareAndSet(read, new FutureTask<>(this::adapt));
                throw new ModelCallException(model.key() + ": reading @EvalModel " + model.describe()
                        + " was cut off by the time limit of the case that read it", cause);
            }
            throw new ModelCallException(model.key() + ": "
                    + (cause.getMessage() == null ? cause.toString() : cause.getMessage()), cause);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelCallException(model.key() + ": interrupted while @EvalModel " + model.describe()
                    + " was being read", e);
        }
    }

    private ModelClient adapt() {
        Object value = model.read(instance);
        return Integrations.modelClient(model.key(), value, pricing).orElseThrow(
                () -> new IllegalStateException("@EvalModel " + model.describe() + " of "
                        + model.declaringClass().getName() + " supplied a " + value.getClass().getName()
                        + ", which is not a model the engine can call: supply " + Integrations.modelTypes()));
    }

    private static boolean interrupted(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof InterruptedIOException
                    || t instanceof ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        // the model belongs to the eval class
    }
}
