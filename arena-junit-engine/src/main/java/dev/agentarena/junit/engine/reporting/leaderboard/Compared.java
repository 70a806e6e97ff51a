package dev.agentarena.junit.engine.reporting.leaderboard;

import org.apiguardian.api.API;

/**
 * What the rows of an eval's leaderboard are, so that it names them as the eval does: models, or the configurations
 * of an eval that compares {@code @EvalConfiguration}s, on a model or on none (a retrieval-only eval).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum Compared {

    /** Models, as most evals compare. */
    MODELS("model"),
    /** Configurations, at least one of them running on a model. */
    CONFIGURATIONS("configuration"),
    /** Configurations none of which runs on a model: no call, no cost. */
    CONFIGURATIONS_WITHOUT_MODEL("configuration");

    private final String noun;

    Compared(String noun) {
        this.noun = noun;
    }

    /** What one row is: {@code model} or {@code configuration}. */
    public String noun() {
        return noun;
    }

    /** {@code 1 model}, {@code 3 configurations}, with {@code no model} added when none runs on one. */
    String count(int rows) {
        return rows + " " + noun + (rows == 1 ? "" : "s") + (this == CONFIGURATIONS_WITHOUT_MODEL ? ", no model" : "");
    }
}
