package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.ConfigurationParameters;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.config.MapConfigurationParameters;
import dev.agentarena.junit.engine.reporting.gates.GateRule;
import dev.agentarena.junit.engine.reporting.gates.GateSpec;

class SettingsTest {

    @TempDir
    Path root;

    private ConfigurationParameters parameters(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(values);
        all.put("arena.project.root", root.toString());
        return new MapConfigurationParameters(all);
    }

    @Test
    void leaderboardSettingsComeFromTheConfiguration() {
        ArenaConfiguration configuration = ArenaConfiguration.from(parameters(Map.of("arena.seed", "7",
                "arena.metrics.weights.accuracy", "0.5", "arena.metrics.weights.citation_rate", "0.3",
                "arena.metrics.lower-is-better", "hallucinated_refs", "arena.repeat-reducer", "pass@3")));
        LeaderboardSettings settings = LeaderboardSettings.from(configuration);
        assertThat(settings.seed()).isEqualTo(7);
        assertThat(settings.resamples()).isEqualTo(2000);
        assertThat(settings.weights()).containsOnly(Map.entry("accuracy", 0.5), Map.entry("citation_rate", 0.3));
        assertThat(settings.lowerIsBetter("hallucinated_refs")).isTrue();
        assertThat(settings.lowerIsBetter("cost")).isTrue();
        assertThat(settings.lowerIsBetter("citation_rate")).isFalse();
        assertThat(settings.reducer()).isEqualTo(new RepeatReducer(RepeatReducer.Kind.PASS_AT_K, 3));
        assertThat(LeaderboardSettings.from(ArenaConfiguration.from(parameters(Map.of()))).weights())
                .containsOnly(Map.entry("accuracy", 1.0));
    }

    @Test
    void theDefaultsAreThoseOfAnEmptyConfiguration() {
        assertThat(LeaderboardSettings.from(ArenaConfiguration.from(parameters(Map.of()))))
                .isEqualTo(LeaderboardSettings.defaults());
    }

    @Test
    void aBadRepeatReducerNamesItsKeyAndSource() {
        ArenaConfiguration configuration = ArenaConfiguration.from(parameters(Map.of("arena.repeat-reducer", "best")));
        assertThatThrownBy(() -> LeaderboardSettings.from(configuration)).isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("arena.repeat-reducer must be mean, majority, pass@<k> or pass^<k> with "
                        + "k >= 1, but was \"best\" (from the JUnit configuration parameters");
    }

    @Test
    void badWeightsNameTheirKey() {
        ArenaConfiguration configuration = ArenaConfiguration.from(parameters(Map.of(
                "arena.metrics.weights.accuracy", "high")));
        assertThatThrownBy(() -> LeaderboardSettings.from(configuration)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("arena.metrics.weights.accuracy must be a number");
    }

    @Test
    void gatesComeFromDeepPropertyKeysAndNestedYaml() throws Exception {
        Files.writeString(root.resolve("arena.yaml"), "gates:\n  min-accuracy:\n    support-triage:\n"
                + "      exact_match: 0.9\n  max-cost-usd: 2.5\n");
        Map<String, String> values = Map.of("arena.gates.min-accuracy.support-triage.sim_small.contains", "0.7");
        ConfigurationParameters parameters = parameters(values);
        GateSpec spec = GateSpec.from(ArenaConfiguration.from(parameters), parameters.keySet());
        assertThat(spec.rules()).extracting(GateRule::key, GateRule::threshold).containsExactly(
                org.assertj.core.groups.Tuple.tuple("arena.gates.max-cost-usd", 2.5),
                org.assertj.core.groups.Tuple.tuple("arena.gates.min-accuracy.support-triage.exact_match", 0.9),
                org.assertj.core.groups.Tuple.tuple("arena.gates.min-accuracy.support-triage.sim_small.contains", 0.7));
    }
}
