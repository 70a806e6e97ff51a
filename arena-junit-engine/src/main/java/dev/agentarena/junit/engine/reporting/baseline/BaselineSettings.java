package dev.agentarena.junit.engine.reporting.baseline;

import java.nio.file.Path;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;

/**
 * Where the baseline lives and how strictly it is held.
 *
 * @param path the baseline file, resolved against the project root
 * @param required whether the path was configured explicitly, so a missing file is an error rather than "no baseline
 *        yet"
 * @param tolerance the largest absolute accuracy drop that is not a regression by itself
 * @param update whether to write this run as the new baseline instead of comparing
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record BaselineSettings(Path path, boolean required, double tolerance, boolean update) {

    /** The default file name. */
    public static final String DEFAULT_FILE = "arena-baseline.json";
    /** The default tolerance. */
    public static final double DEFAULT_TOLERANCE = 0.02;

    /** Reads the settings, naming the key in any error. */
    public static BaselineSettings from(ArenaConfiguration configuration) {
        String path = configuration.get(Constants.BASELINE_PATH).orElse(null);
        double tolerance = configuration.getDouble(Constants.BASELINE_TOLERANCE).orElse(DEFAULT_TOLERANCE);
        if (!(tolerance >= 0 && tolerance <= 1)) {
            throw configuration.invalid(Constants.BASELINE_TOLERANCE, String.valueOf(tolerance), "between 0 and 1");
        }
        return new BaselineSettings(configuration.projectRoot().resolve(path == null ? DEFAULT_FILE : path),
                path != null, tolerance, configuration.getBoolean(Constants.BASELINE_UPDATE, false));
    }
}
