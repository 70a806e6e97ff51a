package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the triage sample with the real JUnit console launchers, of JUnit 5 and of JUnit 6, selecting one case by
 * unique id: only that case runs.
 */
class ConsoleLauncherIT {

    private static final String CASE = "[engine:agent-arena]/[class:dev.agentarena.samples.triage.SupportTriageEvalTest]"
            + "/[model:sim_small]/[case:refund_request]";

    @ParameterizedTest
    @ValueSource(strings = {"console-junit5.jar", "console-junit6.jar"})
    void selectingOneCaseByUniqueIdRunsThatCaseAlone(String launcher) throws Exception {
        Path output = Paths.get("target/console-runs", launcher.replace(".jar", ""));
        Path log = Files.createDirectories(output).resolve("console.log");
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                // allure-junit-platform is on the class path: keep its results away from the Surefire run's.
                "-Dallure.results.directory=" + output.resolve("allure-results").toAbsolutePath(),
                "-jar", Paths.get("target/console-launchers", launcher).toString(),
                "execute", "--disable-banner", "--details=tree", "--disable-ansi-colors",
                "--class-path", applicationClassPath(),
                "--select-unique-id", CASE,
                "--config", "arena.output.dir=" + output.toAbsolutePath()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("launcher finished").isTrue();
        String console = Files.readString(log, StandardCharsets.UTF_8);

        assertThat(console).contains("refund_request", "sim_small/tickets[refund_request]/classification",
                "sim_small/tickets[refund_request]/valid_label");
        assertThat(console).doesNotContain("invoice_copy").doesNotContain("sim_large");
        // The engine sanitises display names itself, so JUnit 5 and 6 print the same tree line (score, mark, reason).
        assertThat(console).contains("sim_small/tickets[refund_request]/classification 1.00 ✔ selected 'billing' ✔")
                .contains("scorer_version = `", "reason = `selected 'billing'`");
        assertThat(console).containsPattern("2 tests successful|2 tests found");
        List<String> results = Files.readAllLines(output.resolve("results.jsonl"));
        assertThat(results).hasSize(2).allSatisfy(line -> assertThat(line)
                .contains("\"case_id\":\"refund_request\"", "\"model\":\"sim_small\""));
    }

    /** The test class path without the JUnit jars, which the standalone launcher brings in its own version. */
    private static String applicationClassPath() {
        return List.of(System.getProperty("java.class.path").split(File.pathSeparator)).stream()
                .filter(entry -> {
                    String name = Paths.get(entry).getFileName().toString();
                    return !(name.startsWith("junit-") || name.startsWith("opentest4j")
                            || name.startsWith("apiguardian") || name.startsWith("surefire")
                            || name.startsWith("common-") || name.contains("failsafe"));
                })
                .collect(Collectors.joining(File.pathSeparator));
    }
}
