package dev.agentarena.junit.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.Constants;

/** The typed view of the run-wide settings: each default, each value typed, each bad value named with its source. */
class ArenaSettingsTest {

    private static final String FROM_PARAMETERS = "(from the JUnit configuration parameters, system properties or "
            + "junit-platform.properties)";

    @TempDir
    Path root;

    @Test
    void everySettingHasItsDocumentedDefault() {
        ArenaSettings settings = settings(Map.of());

        assertThat(settings.outputDirectory()).isEqualTo(root.resolve("target/arena"));
        assertThat(settings.outputTextLimit()).isEqualTo(4000);
        assertThat(settings.outputScoreLines()).isEqualTo(250);
        assertThat(settings.concurrency()).isEqualTo(8);
        assertThat(settings.seed()).isEqualTo(42);
        assertThat(settings.nodes()).isEqualTo(NodeMode.ALL);
        assertThat(settings.lowScores()).isEqualTo(LowScores.FAIL);
        assertThat(settings.judgeModel()).isEqualTo("sim_judge");
        assertThat(settings.cacheMode()).isEqualTo(CacheMode.OFF);
        assertThat(settings.cacheDirectory()).isEqualTo(root.resolve("src/test/resources/arena-recordings"));
        assertThat(settings.repeats()).as("unset, so that @Eval(repeats) applies").isEmpty();
        assertThat(settings.leaderboardTests()).isFalse();
        assertThat(settings.bootstrapResamples()).isEqualTo(2000);
        assertThat(settings.minCases()).isEqualTo(30);
        assertThat(settings.baselineFile()).isEqualTo(root.resolve("arena-baseline.json"));
        assertThat(settings.baselineFileRequired()).isFalse();
        assertThat(settings.baselineTolerance()).isEqualTo(0.02);
        assertThat(settings.baselineUpdate()).isFalse();
    }

    @Test
    void autoDisplayNamesAreStableUnderSurefireOnly() {
        boolean surefire = System.getProperty("surefire.test.class.path") != null
                || System.getProperty("surefire.real.class.path") != null;

        assertThat(settings(Map.of()).displayNames()).isEqualTo(surefire ? DisplayNames.STABLE : DisplayNames.SHORT);
        assertThat(settings(Map.of(Constants.DISPLAY_NAMES, "Short")).displayNames()).isEqualTo(DisplayNames.SHORT);
        assertThat(settings(Map.of(Constants.DISPLAY_NAMES, "full")).displayNames()).isEqualTo(DisplayNames.FULL);
        assertThat(settings(Map.of(Constants.DISPLAY_NAMES, "stable")).displayNames()).isEqualTo(DisplayNames.STABLE);
        assertThat(DisplayNames.STABLE.full()).as("unique within the class, as Surefire needs").isTrue();
        assertThat(DisplayNames.STABLE.scored()).as("the same in every execution").isFalse();
    }

    @Test
    void setValuesAreReadTyped() {
        ArenaSettings settings = settings(Map.ofEntries(Map.entry(Constants.OUTPUT_DIR, "build/arena"),
                Map.entry(Constants.OUTPUT_TEXT_LIMIT, "0"), Map.entry(Constants.OUTPUT_SCORE_LINES, "ALL"),
                Map.entry(Constants.CONCURRENCY, "3"), Map.entry(Constants.SEED, "7"),
                Map.entry(Constants.NODES, "summary"), Map.entry(Constants.LOW_SCORES, "report"),
                Map.entry(Constants.JUDGE_MODEL, "openai:gpt-4.1"), Map.entry(Constants.CACHE_MODE, "read-write"),
                Map.entry(Constants.REPEATS, "5"), Map.entry(Constants.LEADERBOARD_TESTS, "true"),
                Map.entry(Constants.BASELINE_PATH, "ci/baseline.json"), Map.entry(Constants.BASELINE_TOLERANCE, "0")));

        assertThat(settings.outputDirectory()).isEqualTo(root.resolve("build/arena"));
        assertThat(settings.outputTextLimit()).isZero();
        assertThat(settings.outputScoreLines()).isEqualTo(Long.MAX_VALUE);
        assertThat(settings.concurrency()).isEqualTo(3);
        assertThat(settings.seed()).isEqualTo(7);
        assertThat(settings.nodes()).isEqualTo(NodeMode.SUMMARY);
        assertThat(settings.lowScores()).isEqualTo(LowScores.REPORT);
        assertThat(settings.judgeModel()).isEqualTo("openai:gpt-4.1");
        assertThat(settings.cacheMode()).isEqualTo(CacheMode.READ_WRITE);
        assertThat(settings.repeats()).hasValue(5);
        assertThat(settings.leaderboardTests()).isTrue();
        assertThat(settings.baselineFile()).isEqualTo(root.resolve("ci/baseline.json"));
        assertThat(settings.baselineFileRequired()).isTrue();
        assertThat(settings.baselineTolerance()).isZero();
    }

    @Test
    void badValuesNameKeyValueAndSource() {
        assertThatThrownBy(() -> settings(Map.of(Constants.DISPLAY_NAMES, "medium")).displayNames())
                .hasMessage("arena.display-names must be auto, full, short or stable, but was \"medium\" "
                        + FROM_PARAMETERS);
        assertThatThrownBy(() -> settings(Map.of(Constants.NODES, "some")).nodes())
                .hasMessage("arena.nodes must be all, failures or summary, but was \"some\" " + FROM_PARAMETERS);
        assertThatThrownBy(() -> settings(Map.of(Constants.SEED, "x")).seed())
                .hasMessage("arena.seed must be a whole number, but was \"x\" " + FROM_PARAMETERS);
        assertThatThrownBy(() -> settings(Map.of(Constants.CONCURRENCY, "0")).concurrency())
                .hasMessage("arena.concurrency must be at least 1, but was \"0\" " + FROM_PARAMETERS);
        assertThatThrownBy(() -> settings(Map.of(Constants.REPEATS, "0")).repeats())
                .hasMessage("arena.repeats must be at least 1, but was \"0\" " + FROM_PARAMETERS);
        assertThatThrownBy(() -> settings(Map.of(Constants.OUTPUT_TEXT_LIMIT, "50")).outputTextLimit())
                .hasMessageStartingWith("arena.output.text-limit must be 0 (no limit) or at least 100 characters");
        assertThatThrownBy(() -> settings(Map.of(Constants.LEADERBOARD_BOOTSTRAP_RESAMPLES, "-1"))
                .bootstrapResamples())
                .hasMessage("arena.leaderboard.bootstrap-resamples must be a whole number of at least 0, but was "
                        + "\"-1\" " + FROM_PARAMETERS);
        assertThatThrownBy(() -> settings(Map.of(Constants.BASELINE_TOLERANCE, "2")).baselineTolerance())
                .hasMessageStartingWith("arena.baseline.tolerance must be between 0 and 1");
    }

    @Test
    void oneViewPerConfiguration() {
        ArenaConfiguration configuration = configuration(Map.of());

        assertThat(configuration.typed()).isSameAs(configuration.typed());
    }

    private ArenaSettings settings(Map<String, String> values) {
        return configuration(values).typed();
    }

    private ArenaConfiguration configuration(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(values);
        all.put(Constants.PROJECT_ROOT, root.toString());
        return ArenaConfiguration.from(new MapConfigurationParameters(all));
    }
}
