package dev.agentarena.junit.engine.reporting.allure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.ConfigurationParameters;

import com.fasterxml.jackson.core.type.TypeReference;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.RunListener;
import dev.agentarena.junit.engine.reporting.RunReport;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.reporting.leaderboard.Results;
import dev.agentarena.junit.engine.results.CaseTranscript;

class AllureReportingTest {

    @TempDir
    Path temp;

    @Test
    void theEngineRunsTheSameWithoutAllureOnTheClassPath() throws Exception {
        String withAllure = new StatusRun().apply(temp.resolve("with").toString());

        List<URL> urls = new ArrayList<>();
        for (String entry : testClassPath()) {
            // Every Allure jar lives under io/qameta in the local repository.
            if (!entry.replace('\\', '/').contains("/io/qameta/")) {
                urls.add(Paths.get(entry).toUri().toURL());
            }
        }
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader isolated = new URLClassLoader(urls.toArray(new URL[0]),
                ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> isolated.loadClass("io.qameta.allure.Allure"))
                    .isInstanceOf(ClassNotFoundException.class);
            Thread.currentThread().setContextClassLoader(isolated);
            @SuppressWarnings("unchecked")
            Function<String, String> run = (Function<String, String>) isolated.loadClass(StatusRun.class.getName())
                    .getDeclaredConstructor().newInstance();
            String withoutAllure = run.apply(temp.resolve("without").toString());

            assertThat(withAllure).startsWith("allure on the class path\n");
            assertThat(withoutAllure).startsWith("no allure\n");
            assertThat(body(withoutAllure)).isEqualTo(body(withAllure)).contains("SUCCESSFUL", "FAILED", "ABORTED")
                    .doesNotContain("LinkageError", "NoClassDefFoundError");
        }
        finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    @Test
    void outsideAnAllureTestReportingDoesNothing() {
        // allure-java-commons is on this module's class path, but no allure-junit-platform listener tracks a test.
        assertThat(AllureReporter.available()).isTrue();
        String summary = new StatusRun().apply(temp.toString());
        assertThat(summary.lines().skip(1)).hasSize(10);
    }

    @Test
    void environmentNamesTheModelsThatRanTheJudgeTheSeedAndVersions() {
        ArenaConfiguration configuration = ArenaConfiguration.withoutFile(parameters(Map.of("arena.seed", "7",
                "arena.judge.model", "sim_judge")));

        Map<String, String> entries = AllureEnvironment.of(List.of("sim_small", "sim_large"), configuration).entries();

        assertThat(entries).containsEntry("models", "sim_large, sim_small").containsEntry("seed", "7")
                .containsEntry("judge.model", "sim_judge").containsKeys("agent-arena.version",
                        "junit.platform.version", "java.version");
        assertThat(entries.get("junit.platform.version")).matches("\\d+\\.\\d+.*");
    }

    @Test
    void finishWritesEnvironmentAndCategoriesOnlyIntoAnExistingResultsDirectoryAfterEvalsRan() throws Exception {
        Path results = temp.resolve("allure-results");
        ArenaConfiguration configuration = ArenaConfiguration.withoutFile(parameters(Map.of()));
        RunListener allure = AllureReporter.ifAvailable(configuration).orElseThrow();
        RunReport report = new RunReport(Leaderboard.compute(List.of(), LeaderboardSettings.from(configuration)),
                temp, Optional.empty());
        String previous = System.getProperty(ResultsDirectory.KEY);
        System.setProperty(ResultsDirectory.KEY, results.toString());
        try {
            allure.runFinished(report);
            assertThat(results).doesNotExist();

            Files.createDirectories(results);
            allure.runFinished(report);
            assertThat(results).isEmptyDirectory();

            allure.resultReported(Results.of("eval", "sim_small", "case").score(1.0).build(),
                    new CaseTranscript(null, null, "", null));
            allure.runFinished(report);
        }
        finally {
            if (previous == null) {
                System.clearProperty(ResultsDirectory.KEY);
            }
            else {
                System.setProperty(ResultsDirectory.KEY, previous);
            }
        }
        assertThat(Files.readAllLines(results.resolve("environment.properties"))).contains("models=sim_small", "seed=42");
        List<Map<String, Object>> categories = Json.MAPPER.readValue(results.resolve("categories.json").toFile(),
                new TypeReference<List<Map<String, Object>>>() { });
        assertThat(categories).extracting(c -> c.get("name")).contains("Low score", "Model error",
                "Judge abstained", "Not applicable");
    }

    @Test
    void categoriesMatchTheMessagesScorerTestsEndWith() {
        assertThat(matching("failed", "exact_match scored 0.00 for case 'wrong' on sim_small: expected 'billing'",
                "")).containsExactly("Low score");
        assertThat(matching("broken", "connection refused", "dev.agentarena.junit.model.ModelCallException: "
                + "connection refused\n\tat x.y(Z.java:1)")).containsExactly("Model error");
        assertThat(matching("broken", "scorer exploded", "java.lang.IllegalStateException: scorer exploded\n\tat a"))
                .containsExactly("Scorer or task error");
        assertThat(matching("skipped", "judge abstained: unparseable verdict\nfoo", ""))
                .containsExactly("Judge abstained");
        assertThat(matching("skipped", "not applicable: the scorer returned no score for this case", ""))
                .containsExactly("Not applicable");
    }

    @Test
    void categoriesTellCasesLeftUnrunGatesAndRegressionsFromLowScoresAndNotApplicable() {
        assertThat(matching("skipped", "not run: the budget of 1.00 USD was spent before this case", ""))
                .containsExactly("Not run");
        assertThat(matching("failed", "gate failed: support-triage / sim_small / classification accuracy 0.41 "
                + "< 0.50", "")).containsExactly("Gate failed");
        assertThat(matching("failed", "regressed: support-triage/sim_small/classification accuracy 0.810 → 0.700 "
                + "(-0.110, tolerance 0.020); paired on 32 shared cases\nrefused: capitals/sim_small/contains: scorer "
                + "version changed", "")).containsExactly("Baseline regression");
        assertThat(matching("failed", "3 of 32 results of sim_small / classification scored low; score 0.91. Lowest: "
                + "a", "")).containsExactly("Low score");
    }

    /** The categories Allure puts a result in: status listed, and every regex given matches the whole text. */
    private static List<Object> matching(String status, String message, String trace) {
        return AllureCategories.CATEGORIES.stream()
                .filter(c -> ((List<?>) c.get("matchedStatuses")).contains(status))
                .filter(c -> !c.containsKey("messageRegex") || message.matches((String) c.get("messageRegex")))
                .filter(c -> !c.containsKey("traceRegex") || trace.matches((String) c.get("traceRegex")))
                .map(c -> c.get("name"))
                .collect(Collectors.toList());
    }

    private static String body(String summary) {
        return summary.substring(summary.indexOf('\n') + 1);
    }

    private static List<String> testClassPath() {
        String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return List.of(path.split(File.pathSeparator));
    }

    private static ConfigurationParameters parameters(Map<String, String> values) {
        return new ConfigurationParameters() {
            @Override
            public java.util.Optional<String> get(String key) {
                return java.util.Optional.ofNullable(values.get(key));
            }

            @Override
            public java.util.Optional<Boolean> getBoolean(String key) {
                return get(key).map(Boolean::parseBoolean);
            }

            @Override
            public <T> java.util.Optional<T> get(String key, Function<String, T> transformer) {
                return get(key).map(transformer);
            }

            @Override
            @SuppressWarnings("deprecation")
            public int size() {
                return values.size();
            }

            @Override
            public java.util.Set<String> keySet() {
                return values.keySet();
            }
        };
    }
}
