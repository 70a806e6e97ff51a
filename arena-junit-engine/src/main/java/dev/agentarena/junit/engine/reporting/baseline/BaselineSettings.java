package dev.agentarena.junit.engine.reporting.baseline;

import java.nio.file.Path;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ArenaSettings;

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

    /** Reads the settings, naming the key in any error. */
    public static BaselineSettings from(ArenaConfiguration configuration) {
        ArenaSettings settings = configuration.typed();
        return new BaselineSettings(settings.baselineFile(), settings.baselineFileRequired(),
                settings.baselineTolerance(), settings.baselineUpdate());
    }
}
