package dev.agentarena.junit.engine.config;

import org.apiguardian.api.API;

/**
 * How scorer tests are named ({@code arena.display-names}, read by {@link ArenaSettings#displayNames()}). Surefire
 * names a test by its display name within its class, so under Surefire the name must carry model, dataset and case to
 * stay unique ({@code sim_small/tickets[refund_request]/classification 1.00 ✔ ...}); in an IDE's or the console
 * launcher's tree, where the case is the parent node, the short form reads better ({@code classification 1.00 ✔ ...}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum DisplayNames {

    /** Model, dataset, case and scorer. */
    FULL,

    /** The scorer alone, under its case. */
    SHORT;

    /** Whether names carry model, dataset and case. */
    public boolean full() {
        return this == FULL;
    }
}
