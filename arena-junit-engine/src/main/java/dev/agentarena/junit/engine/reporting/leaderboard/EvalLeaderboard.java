package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * The leaderboard of one eval: models ranked by composite.
 *
 * @param eval the eval's name
 * @param weights the weights actually used, by dimension (dimensions some model lacks are left out)
 * @param models models, best composite first
 * @param paretoFrontier models on the accuracy-versus-cost frontier, cheapest first
 * @param warnings what a reader should know before trusting the ranking
 * @param compared what the rows are: models, or the eval's configurations
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record EvalLeaderboard(String eval, Map<String, Double> weights, List<ModelEntry> models,
        List<String> paretoFrontier, List<String> warnings, Compared compared) {

    /** Freezes the collections. */
    public EvalLeaderboard {
        weights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
        models = List.copyOf(models);
        paretoFrontier = List.copyOf(paretoFrontier);
        warnings = List.copyOf(warnings);
    }

    /** The named model's row, if it ran. */
    public Optional<ModelEntry> model(String name) {
        return models.stream().filter(m -> m.model().equals(name)).findFirst();
    }
}
