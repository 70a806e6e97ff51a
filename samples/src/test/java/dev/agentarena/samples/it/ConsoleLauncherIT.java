package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the triage sample with the real JUnit console launchers, of JUnit 5 and of JUnit 6, selecting one case by
 * unique id: only that case runs, and its results go to the output directory's {@code partial/}.
 */
class ConsoleLauncherIT {

    private static final String CASE = "[engine:agent-arena]/[class:dev.agentarena.samples.triage.SupportTriageEvalTest]"
            + "/[model:sim_small]/[case:refund_request]";

    @ParameterizedTest
    @ValueSource(strings = {"console-junit5.jar", "console-junit6.jar"})
    void selectingOneCaseByUniqueIdRunsThatCaseAlone(String launcher) throws Exception {
        Path output = Paths.get("target/console-runs", launcher.replace(".jar", "")).toAbsolutePath();
        ScratchMaven.delete(output);
        String console = ConsoleRun.with(launcher).select("--select-unique-id", CASE)
                .config("arena.output.dir", output.toString()).run(output.resolve("console.log"));

        assertThat(console).contains("refund_request", "valid_label 1.00 ✔");
        assertThat(console).doesNotContain("invoice_copy").doesNotContain("sim_large");
        // Outside Surefire the scorer test is named by scorer alone, under its case; the engine sanitises display
        // names itself, so JUnit 5 and 6 print the same tree line (score, mark, reason).
        assertThat(console).containsPattern("refund_request ✔\\R.*classification 1\\.00 ✔ selected 'billing' ✔")
                .contains("scorer_version = `", "reason = `selected 'billing'`");
        assertThat(console).containsPattern("2 tests successful|2 tests found");
        // a partial run: its results go aside, and the full run's results.jsonl is not written
        List<String> results = Files.readAllLines(output.resolve("partial/results.jsonl"));
        assertThat(results).hasSize(2).allSatisfy(line -> assertThat(line)
                .contains("\"case_id\":\"refund_request\"", "\"model\":\"sim_small\""));
        assertThat(output.resolve("results.jsonl")).doesNotExist();
        assertThat(console).contains("This partial run writes " + output.resolve("partial").resolve("results.jsonl"));
    }
}
