package dev.agentarena.junit.engine.evaluation.declared;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.definition.DeclaredModel;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;

/**
 * The models one eval class supplies itself ({@code @EvalModel}), for one run: each behind the run's record/replay,
 * as every model is, and priced by {@code arena.models.<key>.price.*} or the price of the model name its responses
 * report.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DeclaredModels {

    private final Map<String, ModelEndpoint> endpoints;

    private DeclaredModels(Map<String, ModelEndpoint> endpoints) {
        this.endpoints = endpoints;
    }

    /**
     * Checks, before any case runs, that no declared key is one a connector serves: the declared model would hide it.
     *
     * @throws ConfigurationException naming the member and the key
     */
    public static void checkKeys(List<DeclaredModel> models, ModelRegistry registry) {
        for (DeclaredModel model : models) {
            if (registry.serves(model.key())) {
                throw new ConfigurationException("@EvalModel " + model.describe() + " of "
                        + model.declaringClass().getName() + " has the key '" + model.key() + "', which a model "
                        + "connector already serves; give the declared model a key of its own");
            }
        }
    }

    /**
     * The models of an eval's {@code @EvalModel} members; no member is read until a call reaches its model.
     *
     * @param instance the eval instance, or {@code null} when every member is static
     */
    public static DeclaredModels of(List<DeclaredModel> models, Object instance, ModelRegistry registry) {
        Map<String, ModelEndpoint> endpoints = new LinkedHashMap<>();
        for (DeclaredModel model : models) {
            endpoints.put(model.key(), registry.recorded(model.key(),
                    new DeclaredModelEndpoint(model, instance, registry.pricing(model.key()))));
        }
        return new DeclaredModels(endpoints);
    }

    /** The model of a declared key, if the eval declares it. */
    public Optional<ModelEndpoint> endpoint(String modelKey) {
        return Optional.ofNullable(endpoints.get(modelKey));
    }
}
