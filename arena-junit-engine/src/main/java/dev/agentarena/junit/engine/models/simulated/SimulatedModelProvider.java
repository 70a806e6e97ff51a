package dev.agentarena.junit.engine.models.simulated;

import java.util.Set;

import org.apiguardian.api.API;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.connector.ModelClientProvider;
import dev.agentarena.junit.connector.ModelSettings;

/**
 * Serves the offline, deterministic models {@code sim_small}, {@code sim_large}, {@code sim_judge} and
 * {@code sim_user} (the simulated user's default model; every simulated model plays a user when asked to), and the
 * red team's targets {@code sim_vulnerable} and {@code sim_hardened} ({@link SimulatedTargetAgent}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SimulatedModelProvider implements ModelClientProvider {

    private static final Set<String> KEYS = Set.of("sim_small", "sim_large", "sim_judge", "sim_user");

    @Override
    public boolean supports(String modelKey) {
        return KEYS.contains(modelKey) || SimulatedTargetAgent.KEYS.contains(modelKey);
    }

    @Override
    public ModelClient create(String modelKey, ModelSettings settings) {
        if (SimulatedTargetAgent.KEYS.contains(modelKey)) {
            return new SimulatedTargetAgent(modelKey);
        }
        return new SimulatedModel(SimulatedModel.Profile.of(modelKey, settings), settings);
    }
}
