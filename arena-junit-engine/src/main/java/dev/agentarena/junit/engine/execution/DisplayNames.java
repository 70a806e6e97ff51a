package dev.agentarena.junit.engine.execution;

import java.util.Locale;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;

/**
 * How scorer tests are named ({@code arena.display-names}). Surefire names a test by its display name within its
 * class, so under Surefire the name must carry model, dataset and case to stay unique
 * ({@code sim_small/tickets[refund_request]/classification 1.00 ✔ ...}); in an IDE's or the console launcher's tree,
 * where the case is the parent node, the short form reads better ({@code classification 1.00 ✔ ...}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum DisplayNames {

    /** Model, dataset, case and scorer. */
    FULL,

    /** The scorer alone, under its case. */
    SHORT;

    public static DisplayNames from(ArenaConfiguration configuration) {
        String value = configuration.get(Constants.DISPLAY_NAMES, "auto").toLowerCase(Locale.ROOT);
        switch (value) {
            case "auto":
                return underSurefire() ? FULL : SHORT;
            case "full":
                return FULL;
            case "short":
                return SHORT;
            default:
                throw new ConfigurationException(Constants.DISPLAY_NAMES + " must be auto, full or short, but was \""
                        + value + "\"");
        }
    }

    public boolean full() {
        return this == FULL;
    }

    /** Surefire's and Failsafe's forked JVMs carry their class path in these properties. */
    private static boolean underSurefire() {
        return System.getProperty("surefire.test.class.path") != null
                || System.getProperty("surefire.real.class.path") != null;
    }
}
