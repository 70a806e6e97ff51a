package dev.agentarena.junit.engine.models.declared;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.models.ModelRegistry;
import dev.agentarena.junit.model.ModelClient;

/**
 * The clients of the models one eval class declares, for one run: each behind the run's record/replay, as every
 * model is, and priced by {@code arena.models.<key>.price.*} or the price of the model name its responses report.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DeclaredModels {

    private final Map<String, ModelClient> clients;

    private DeclaredModels(Map<String, ModelClient> clients) {
        this.clients = clients;
    }

    /**
     * The clients of an eval's declared models.
     *
     * @param instance the eval instance, or {@code null} when every member is static
     * @throws ConfigurationException when a declared key is one a connector serves
     */
    public static DeclaredModels of(List<DeclaredModel> models, Object instance, ModelRegistry registry) {
        Map<String, ModelClient> clients = new LinkedHashMap<>();
        for (DeclaredModel model : models) {
            if (registry.serves(model.key())) {
                throw new ConfigurationException("@EvalModel " + model.describe() + " of "
                        + model.declaringClass().getName() + " has the key '" + model.key() + "', which a model "
                        + "connector already serves; give the declared model a key of its own");
            }
            clients.put(model.key(), registry.recordings().decorate(model.key(),
                    new DeclaredModelClient(model, instance, registry.pricing(model.key()))));
        }
        return new DeclaredModels(clients);
    }

    /** No declared models. */
    public static DeclaredModels none() {
        return new DeclaredModels(Map.of());
    }

    /** The client of a declared model key, if the eval declares it. */
    public Optional<ModelClient> client(String modelKey) {
        return Optional.ofNullable(clients.get(modelKey));
    }
}
