package dev.agentarena.junit.engine.reporting.baseline;

import java.nio.file.Path;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;

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

    /** The baseline file; default {@code arena-baseline.json} in the project root. */
    public static final String PATH_KEY = "arena.baseline.path";
    /** Absolute accuracy tolerance; default 0.02. */
    public static final String TOLERANCE_KEY = "arena.baseline.tolerance";
    /** {@code true} to write the run as the new baseline; default false. */
    public static final String UPDATE_KEY = "arena.baseline.update";
    /** The default file name. */
    public static final String DEFAULT_FILE = "arena-baseline.json";
    /** The default tolerance. */
    public static final double DEFAULT_TOLERANCE = 0.02;

    /** Reads the settings, naming the key in any error. */
    public static BaselineSettings from(ArenaConfiguration configuration) {
        String path = configuration.get(PATH_KEY).orElse(null);
        double tolerance = configuration.getDouble(TOLERANCE_KEY).orElse(DEFAULT_TOLERANCE);
        if (!(tolerance >= 0 && tolerance <= 1)) {
            throw new ConfigurationException(TOLERANCE_KEY + " must be between 0 and 1, but was " + tolerance);
        }
        return new BaselineSettings(configuration.projectRoot().resolve(path == null ? DEFAULT_FILE : path),
                path != null, tolerance, configuration.getBoolean(UPDATE_KEY, false));
    }
}
