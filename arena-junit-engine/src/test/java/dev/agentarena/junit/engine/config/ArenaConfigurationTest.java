package dev.agentarena.junit.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;

import dev.agentarena.junit.engine.Constants;

class ArenaConfigurationTest {

    private static final String ARENA_YAML = "concurrency: 4\n"
            + "output:\n"
            + "  dir: build/arena\n"
            + "scorers:\n"
            + "  default: [classification, tone]\n"
            + "  options:\n"
            + "    numeric:\n"
            + "      tolerance: 0.01\n"
            + "      relative: true\n"
            + "    classification:\n"
            + "      labels: [billing, technical, account, other]\n"
            + "metrics:\n"
            + "  weights:\n"
            + "    accuracy: 0.5\n"
            + "    citation_rate: 0.3\n";

    @TempDir
    Path root;

    @Test
    void readsArenaYamlFromTheProjectRootFlattenedUnderArena() throws Exception {
        ArenaConfiguration configuration = configuration(Map.of());

        assertThat(configuration.configFile()).contains(root.resolve("arena.yaml"));
        assertThat(configuration.projectRoot()).isEqualTo(root);
        assertThat(configuration.getPositiveInt(Constants.CONCURRENCY, 8)).isEqualTo(4);
        assertThat(configuration.get(Constants.OUTPUT_DIR)).contains("build/arena");
        assertThat(configuration.getList(Constants.SCORERS_DEFAULT)).containsExactly("classification", "tone");
        assertThat(configuration.get(Constants.SCORER_OPTIONS_PREFIX + "classification.labels"))
                .contains("billing,technical,account,other");
        assertThat(configuration.getDouble(Constants.METRIC_WEIGHTS_PREFIX + "accuracy")).contains(0.5);
        assertThat(configuration.get("arena.scorers")).as("a section is not a value").isEmpty();
    }

    @Test
    void modelsAsAMappingSelectItsKeysAndConfigureEach() throws Exception {
        Files.writeString(root.resolve("arena.yaml"), "models:\n  sim_small: {}\n  \"openai:llama3.1\":\n"
                + "    base-url: http://localhost:11434/v1\n");
        ArenaConfiguration configuration = ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString())));

        assertThat(configuration.getList(Constants.MODELS)).containsExactly("sim_small", "openai:llama3.1");
        assertThat(configuration.get(Constants.MODEL_SETTINGS_PREFIX + "openai:llama3.1.base-url"))
                .contains("http://localhost:11434/v1");
        ArenaConfiguration overridden = ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString(), Constants.MODELS, "sim_large")));
        assertThat(overridden.getList(Constants.MODELS)).containsExactly("sim_large");
        assertThat(overridden.get(Constants.MODEL_SETTINGS_PREFIX + "openai:llama3.1.base-url")).isPresent();
    }

    @Test
    void settingsOfModelKeysTheRunDoesNotSelectAreOneLine() throws Exception {
        // a catalogue of models in arena.yaml, one chosen per run: four settings of two other keys, one line
        Files.writeString(root.resolve("arena.yaml"), "\"models.openai:gpt-4o\":\n  rpm: 500\n"
                + "  price: {input-per-million: 2.5, output-per-million: 10}\n"
                + "\"models.openai:gpt-4.1-mini\": {rpm: 100}\n");
        ArenaConfiguration configuration = ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString())));

        List<String> warnings = configuration.unmatchedModelSettings(List.of("openai:gpt-4o-mini", "sim_judge"));

        assertThat(configuration.get(Constants.MODELS)).as("top-level \"models.<key>\": keys select nothing")
                .isEmpty();
        assertThat(warnings).singleElement().asString()
                .startsWith("settings of model keys this run does not select are ignored: ")
                .contains("openai:gpt-4.1-mini (1 setting, in " + root.resolve("arena.yaml") + ", line 4)")
                .contains("openai:gpt-4o (3 settings, in " + root.resolve("arena.yaml") + ", line 2)")
                .contains("This run's models: openai:gpt-4o-mini, sim_judge")
                .doesNotContain("did you mean");
    }

    @Test
    void aSuggestionForAMisspeltModelKeyKeepsTheSettingsWholeName() {
        ArenaConfiguration configuration = ArenaConfiguration.from(new MapConfigurationParameters(Map.of(
                "arena.models.openai:gpt4o-mini.price.input-per-million", "0.15",
                "arena.models.openai:gpt4o-mini.rpm", "500",
                "arena.models.openai:llama3.1:7b.price.output-per-million", "0")));

        List<String> warnings = configuration.unmatchedModelSettings(
                List.of("openai:gpt-4o-mini", "openai:llama3.1:8b", "sim_judge"));

        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(0)).contains("settings arena.models.openai:gpt4o-mini.price.input-per-million, "
                + "arena.models.openai:gpt4o-mini.rpm").endsWith("are ignored; did you mean "
                + "arena.models.openai:gpt-4o-mini.price.input-per-million, arena.models.openai:gpt-4o-mini.rpm?");
        assertThat(warnings.get(1)).startsWith("setting arena.models.openai:llama3.1:7b.price.output-per-million")
                .endsWith("did you mean arena.models.openai:llama3.1:8b.price.output-per-million?");
    }

    @Test
    void anUnselectedModelNearASelectedOneIsNotTakenForItWithItsSettingCut() {
        // gpt-4o configured, gpt-4o-mini selected: not a typo, and never "openai:gpt-4o-mini.input-per-million"
        ArenaConfiguration configuration = ArenaConfiguration.from(new MapConfigurationParameters(Map.of(
                "arena.models.openai:gpt-4o.price.input-per-million", "2.5",
                "arena.models.openai:gpt-4.1-mini.rpm", "500")));

        assertThat(configuration.unmatchedModelSettings(List.of("openai:gpt-4o-mini", "openai:gpt-4.1")))
                .singleElement().asString().contains("openai:gpt-4o (1 setting, ")
                .contains("openai:gpt-4.1-mini (1 setting, ").doesNotContain("did you mean");
    }

    @Test
    void configurationParametersWinOverArenaYaml() throws Exception {
        ArenaConfiguration configuration = configuration(Map.of(Constants.CONCURRENCY, " 16 ",
                Constants.SCORERS_DEFAULT, "exact_match"));

        assertThat(configuration.getPositiveInt(Constants.CONCURRENCY, 8)).isEqualTo(16);
        assertThat(configuration.getList(Constants.SCORERS_DEFAULT)).containsExactly("exact_match");
    }

    @Test
    void launcherParametersWinOverSystemPropertiesOverPropertiesFilesOverArenaYaml() throws Exception {
        Files.writeString(root.resolve("arena.yaml"), "test:\n  precedence:\n    launcher: yaml\n    system: yaml\n"
                + "    properties: yaml\n    yaml: yaml\n");
        String prefix = "arena.test.precedence.";
        // JUnit reads junit-platform.properties through the context class loader; a private one keeps this file
        // away from every other test of the module.
        Path classpath = Files.createDirectories(root.resolve("classpath"));
        Files.writeString(classpath.resolve(ConfigurationParameters.CONFIG_FILE_NAME), prefix + "launcher=properties\n"
                + prefix + "system=properties\n" + prefix + "properties=properties\n");
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        System.setProperty(prefix + "launcher", "system");
        System.setProperty(prefix + "system", "system");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classpath.toUri().toURL()}, previous)) {
            Thread.currentThread().setContextClassLoader(loader);
            ConfigurationParameters parameters = LauncherDiscoveryRequestBuilder.request()
                    .configurationParameter(prefix + "launcher", "launcher")
                    .configurationParameter(Constants.PROJECT_ROOT, root.toString())
                    .build().getConfigurationParameters();

            ArenaConfiguration configuration = ArenaConfiguration.from(parameters);

            assertThat(configuration.get(prefix + "launcher")).contains("launcher");
            assertThat(configuration.get(prefix + "system")).contains("system");
            assertThat(configuration.get(prefix + "properties")).contains("properties");
            assertThat(configuration.get(prefix + "yaml")).contains("yaml");
        }
        finally {
            Thread.currentThread().setContextClassLoader(previous);
            System.clearProperty(prefix + "launcher");
            System.clearProperty(prefix + "system");
        }
    }

    @Test
    void sectionsKeepYamlTypesAndTakePropertiesAsText() throws Exception {
        ArenaConfiguration configuration = configuration(Map.of(
                Constants.SCORER_OPTIONS_PREFIX + "numeric.tolerance", "0.05",
                Constants.SCORER_OPTIONS_PREFIX + "numeric.mode", "absolute"));

        Map<String, Object> numeric = configuration.section(Constants.SCORER_OPTIONS_PREFIX + "numeric.");
        Map<String, Object> classification = configuration.section(Constants.SCORER_OPTIONS_PREFIX + "classification");

        assertThat(numeric).containsEntry("tolerance", "0.05").containsEntry("relative", true)
                .containsEntry("mode", "absolute");
        assertThat(classification).containsEntry("labels", List.of("billing", "technical", "account", "other"));
        assertThat(configuration(Map.of()).section(Constants.SCORER_OPTIONS_PREFIX + "numeric."))
                .containsEntry("tolerance", 0.01);
        assertThat(configuration.section(Constants.METRIC_WEIGHTS_PREFIX))
                .containsEntry("accuracy", 0.5).containsEntry("citation_rate", 0.3);
        assertThat(configuration.section("arena.nothing.here.")).isEmpty();
    }

    @Test
    void withoutArenaYamlOnlyParametersCount() {
        ArenaConfiguration configuration = ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString(), Constants.SEED, "7")));

        assertThat(configuration.configFile()).isEmpty();
        assertThat(configuration.getLong(Constants.SEED, 42)).isEqualTo(7);
        assertThat(configuration.getPositiveInt(Constants.CONCURRENCY, 8)).isEqualTo(8);
        assertThat(configuration.section(Constants.SCORER_OPTIONS_PREFIX + "numeric.")).isEmpty();
        assertThat(configuration.sourceOf(Constants.CONCURRENCY)).isEqualTo("not set");
    }

    @Test
    void arenaConfigNamesAnotherFileRelativeToTheProjectRoot() throws Exception {
        Files.createDirectories(root.resolve("config"));
        Files.writeString(root.resolve("config/ci.yaml"), "concurrency: 2\n");

        ArenaConfiguration configuration = ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString(), Constants.CONFIG, "config/ci.yaml")));

        assertThat(configuration.configFile()).contains(root.resolve("config/ci.yaml"));
        assertThat(configuration.getInt(Constants.CONCURRENCY, 8)).isEqualTo(2);
    }

    @Test
    void arenaConfigNamingAMissingFileIsAnError() {
        assertThatThrownBy(() -> ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString(), Constants.CONFIG, "missing.yaml"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("The configuration file " + root.resolve("missing.yaml") + " named by arena.config="
                        + "missing.yaml does not exist.");
    }

    @Test
    void aProjectRootThatDoesNotExistIsAnErrorNamingTheSetting() {
        // the project's arena.yaml would be silently ignored, and its datasets and output looked for elsewhere
        assertThatThrownBy(() -> ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.resolve("no-such-project").toString()))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("arena.project.root=" + root.resolve("no-such-project") + " names "
                        + root.resolve("no-such-project") + ", which does not exist")
                .hasMessageContaining("arena.yaml");
    }

    @Test
    void aProjectRootThatIsAFileIsAnError() throws Exception {
        Path file = Files.writeString(root.resolve("pom.xml"), "<project/>");

        assertThatThrownBy(() -> ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, file.toString()))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("arena.project.root=" + file).hasMessageContaining("which is not a directory");
    }

    @Test
    void arenaConfigNamingADirectoryIsAnError() {
        assertThatThrownBy(() -> ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString(), Constants.CONFIG, "."))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageEndingWith("is not a file.");
    }

    @Test
    void malformedYamlNamesFileAndLine() throws Exception {
        Files.writeString(root.resolve("arena.yaml"), "scorers:\n  default: x\n  options: [unclosed\nmodels: y\n");

        assertThatThrownBy(() -> ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString()))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("Cannot parse the configuration file " + root.resolve("arena.yaml") + ", line ");
    }

    @Test
    void aKeyWrittenTwiceIsAnError() throws Exception {
        Files.writeString(root.resolve("arena.yaml"), "scorers:\n  default: x\nscorers:\n  default: y\n");

        assertThatThrownBy(() -> ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString()))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(", line 3")
                .hasMessageContaining("scorers");
    }

    @Test
    void aYamlFileThatIsNotAMappingIsAnError() throws Exception {
        Files.writeString(root.resolve("arena.yaml"), "- a\n- b\n");

        assertThatThrownBy(() -> ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString()))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("must hold a mapping of keys");
    }

    @Test
    void anEmptyYamlFileIsNoConfiguration() throws Exception {
        Files.writeString(root.resolve("arena.yaml"), "# nothing yet\n");

        ArenaConfiguration configuration = ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString())));

        assertThat(configuration.getInt(Constants.CONCURRENCY, 8)).isEqualTo(8);
    }

    @Test
    void aWrongTypedParameterNamesKeyValueAndSource() throws Exception {
        ArenaConfiguration configuration = configuration(Map.of(Constants.CONCURRENCY, "abc",
                Constants.SIM_LATENCY_MS, "x", "arena.flag", "maybe", "arena.budget.usd", "NaN"));

        assertThatThrownBy(() -> configuration.getPositiveInt(Constants.CONCURRENCY, 8))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.concurrency must be a whole number, but was \"abc\" (from the JUnit configuration "
                        + "parameters, system properties or junit-platform.properties)");
        assertThatThrownBy(() -> configuration.getLong(Constants.SIM_LATENCY_MS, 0))
                .hasMessageStartingWith("arena.sim.latency-ms must be a whole number, but was \"x\"");
        assertThatThrownBy(() -> configuration.getBoolean("arena.flag", false))
                .hasMessageStartingWith("arena.flag must be true or false, but was \"maybe\"");
        assertThatThrownBy(() -> configuration.getDouble("arena.budget.usd"))
                .hasMessageStartingWith("arena.budget.usd must be a number, but was \"NaN\"");
    }

    @Test
    void aWrongTypedYamlValueNamesFileAndLine() throws Exception {
        Files.writeString(root.resolve("arena.yaml"), "# project settings\nconcurrency: lots\nrepeats: 0\n");

        ArenaConfiguration configuration = ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, root.toString())));

        assertThatThrownBy(() -> configuration.getInt(Constants.CONCURRENCY, 8))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.concurrency must be a whole number, but was \"lots\" (in " + root.resolve("arena.yaml")
                        + ", line 2)");
        assertThatThrownBy(() -> configuration.getPositiveInt(Constants.REPEATS, 1))
                .hasMessage("arena.repeats must be at least 1, but was \"0\" (in " + root.resolve("arena.yaml")
                        + ", line 3)");
    }

    private ArenaConfiguration configuration(Map<String, String> parameters) throws Exception {
        Files.writeString(root.resolve("arena.yaml"), ARENA_YAML);
        Map<String, String> all = new LinkedHashMap<>(parameters);
        all.put(Constants.PROJECT_ROOT, root.toString());
        return ArenaConfiguration.from(new MapConfigurationParameters(all));
    }
}
