package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.testkit.engine.Event;

import dev.agentarena.junit.engine.fixtures.TriageFixture;

/**
 * {@link Constants} is the one source of truth for configuration keys: every key the main code names is declared
 * there and documented in {@code docs/reference/configuration.md}, and a key nobody reads is reported.
 */
class ConfigurationKeysTest {

    private static final Path MAIN = Paths.get("src/main/java");
    private static final Path REFERENCE = Paths.get("../docs/reference/configuration.md");
    private static final Pattern KEY_LITERAL = Pattern.compile("\"(arena\\.[A-Za-z0-9_.@^-]*)\"");

    @TempDir
    Path output;

    static Set<String> declaredKeys() {
        Set<String> keys = new TreeSet<>();
        for (Field field : Constants.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                try {
                    String value = (String) field.get(null);
                    if (value.startsWith(Constants.PREFIX) && !value.equals(Constants.PREFIX)) {
                        keys.add(value);
                    }
                }
                catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return keys;
    }

    @Test
    void everyKeyTheMainCodeNamesIsDeclaredInConstants() throws IOException {
        Set<String> declared = declaredKeys();
        List<String> undeclared = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
                if (file.endsWith("Constants.java")) {
                    continue;
                }
                // comments may quote keys in examples; only code counts
                String code = Files.readString(file, StandardCharsets.UTF_8).replaceAll("(?s)/\\*.*?\\*/", "")
                        .replaceAll("//[^\n]*", "");
                Matcher literal = KEY_LITERAL.matcher(code);
                while (literal.find()) {
                    String key = literal.group(1);
                    // the configuration file's name, not a key
                    if (!key.equals("arena.yaml") && !declared.contains(key)) {
                        undeclared.add(MAIN.relativize(file) + ": " + key);
                    }
                }
            }
        }
        assertThat(undeclared).as("keys named in main code outside Constants: declare them there and read them "
                + "from there").isEmpty();
    }

    @Test
    void everyDeclaredKeyIsDocumented() throws IOException {
        String reference = Files.readString(REFERENCE, StandardCharsets.UTF_8);
        List<String> undocumented = declaredKeys().stream().filter(key -> !reference.contains("`" + key))
                .collect(Collectors.toList());
        assertThat(undocumented).as("keys of Constants missing from %s", REFERENCE).isEmpty();
    }

    @Test
    void anUnknownKeyIsReportedWithTheNearestKnownOne() {
        EngineRun run = new EngineRun(output).with("arena.concurency", "4").with("arena.models.sim_small.accuracy", "1")
                .with("arena.scorers.options.classification.labels", "billing,account")
                .with("arena.gates.min-accuracy.triage", "0.1").execute(TriageFixture.class);

        List<String> warnings = warnings(run);
        assertThat(warnings).singleElement().asString().contains("unknown setting arena.concurency",
                "did you mean arena.concurrency?", "configuration parameters");
    }

    @Test
    void aModelSettingOfNoModelOfTheRunIsReportedWithTheKeyItProbablyMeant() {
        EngineRun run = new EngineRun(output).with("arena.models.sim_smal.rpm", "60")
                .with("arena.models.sim_small.rpm", "60").execute(TriageFixture.class);

        assertThat(warnings(run)).singleElement().asString().contains("setting arena.models.sim_smal.rpm",
                "matches no model of this run", "did you mean arena.models.sim_small.rpm?");
    }

    @Test
    void settingsOfAModelTheRunDoesNotSelectAreOneLine() {
        EngineRun run = new EngineRun(output).with("arena.models.openai:gpt-4o.rpm", "500")
                .with("arena.models.openai:gpt-4o.price.input-per-million", "2.5")
                .with("arena.models.openai:gpt-4o.price.output-per-million", "10").execute(TriageFixture.class);

        assertThat(warnings(run)).singleElement().asString().contains("openai:gpt-4o (3 settings, ")
                .contains("this run does not select");
    }

    @Test
    void anIgnoredSettingIsToldOnceASessionNotOncePerExecution() {
        // Surefire executes class by class in one launcher session: each execution reads the same configuration
        Map<String, String> settings = Map.of(Constants.OUTPUT_DIR, output.toString(), Constants.SIM_LATENCY_MS, "0",
                Constants.OUTPUT_PROGRESS, "off", "arena.models.openai:gpt-4o.rpm", "500");
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (LauncherSession session = LauncherFactory.openSession()) {
            for (int execution = 0; execution < 2; execution++) {
                session.getLauncher().execute(LauncherDiscoveryRequestBuilder.request()
                        .selectors(DiscoverySelectors.selectClass(TriageFixture.class))
                        .configurationParameters(settings).build());
            }
        }
        finally {
            System.setOut(console);
        }

        assertThat(printed.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("this run does not select"))).hasSize(1);
    }

    @Test
    void aModelsMappingInArenaYamlSaysWhichModelsItReplaces() throws IOException {
        Files.writeString(output.resolve("arena.yaml"), "models:\n  sim_large: {latency-ms: 0}\n",
                StandardCharsets.UTF_8);
        EngineRun run = new EngineRun(output).with(Constants.PROJECT_ROOT, output.toString())
                .execute(TriageFixture.class);

        assertThat(warnings(run)).singleElement().asString().startsWith("arena.yaml's models: mapping ("
                + output.resolve("arena.yaml") + ", line 1) selects the models of every eval (sim_large), replacing "
                + "those named with @UseModels or @EvalModel by TriageFixture (sim_small, sim_large)");
    }

    @Test
    void aModelsMappingThatKeepsTheClassesModelsOrIsOverriddenSaysNothing() throws IOException {
        Files.writeString(output.resolve("arena.yaml"), "models:\n  sim_small: {}\n  sim_large: {}\n",
                StandardCharsets.UTF_8);
        EngineRun same = new EngineRun(output).with(Constants.PROJECT_ROOT, output.toString())
                .execute(TriageFixture.class);
        EngineRun overridden = new EngineRun(output).with(Constants.PROJECT_ROOT, output.toString())
                .with(Constants.MODELS, "sim_large").execute(TriageFixture.class);

        assertThat(warnings(same)).isEmpty();
        assertThat(warnings(overridden)).isEmpty();
    }

    @Test
    void knownKeysAreNotReported() {
        EngineRun run = new EngineRun(output).with(Constants.CONCURRENCY, "4").with(Constants.SEED, "7")
                .execute(TriageFixture.class);

        assertThat(warnings(run)).isEmpty();
    }

    @Test
    void anUnknownKeyInArenaYamlNamesTheFileAndLine() throws IOException {
        Files.writeString(output.resolve("arena.yaml"), "concurrency: 2\nleaderboard:\n  tests: false\n  min-case: 5\n",
                StandardCharsets.UTF_8);
        EngineRun run = new EngineRun(output).with(Constants.PROJECT_ROOT, output.toString())
                .execute(TriageFixture.class);

        assertThat(warnings(run)).singleElement().asString().contains("arena.leaderboard.min-case",
                "arena.yaml, line 4", "did you mean arena.leaderboard.min-cases?");
    }

    private static List<String> warnings(EngineRun run) {
        return run.results().allEvents().reportingEntryPublished().stream().map(Event::getPayload)
                .flatMap(payload -> payload.stream()).map(ReportEntry.class::cast)
                .flatMap(entry -> entry.getKeyValuePairs().entrySet().stream())
                .filter(pair -> pair.getKey().equals("warning")).map(pair -> pair.getValue())
                .collect(Collectors.toList());
    }
}
