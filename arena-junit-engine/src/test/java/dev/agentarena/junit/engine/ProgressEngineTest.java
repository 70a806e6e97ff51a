package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.NodeModesFixture;
import dev.agentarena.junit.engine.fixtures.TriageFixture;

/**
 * {@code arena.output.progress}: a long run says how far it has come through the console, in summary mode too, where
 * no test prints anything until the end. The interval is 0 here (a line after every case), so that nothing depends on
 * how long the run takes; {@code ProgressLinesTest} covers the pace on a clock of its own.
 */
class ProgressEngineTest {

    // 10 cases of a dataset file, one scorer throwing on one of them
    private static final Pattern LINE = Pattern.compile("\\[arena] progress: node-modes recorded node-modes: (\\d+)"
            + "(?: of 10 cases| cases? done), [\\d.]+ cases/s(?:, about \\S+( \\S+)? left)?, (\\d+) errors?, "
            + "\\$0\\.0000 spent");

    @TempDir
    Path output;

    @Test
    void inSummaryModeALineAfterEachCaseCountsCasesAndErrorsAndALastOneSaysTheRunIsDone() {
        List<String> printed = progressLines(new EngineRun(output).with(Constants.NODES, "summary")
                .with(Constants.OUTPUT_PROGRESS, "on").with(Constants.OUTPUT_PROGRESS_INTERVAL, "0"),
                NodeModesFixture.class);

        assertThat(printed).hasSize(11);
        for (int i = 0; i < 10; i++) {
            Matcher line = LINE.matcher(printed.get(i));
            assertThat(line.matches()).as(printed.get(i)).isTrue();
            assertThat(Integer.parseInt(line.group(1))).isEqualTo(i + 1);
        }
        Matcher last = LINE.matcher(printed.get(9));
        assertThat(last.matches()).isTrue();
        assertThat(last.group(3)).as("brief threw on one case").isEqualTo("1");
        assertThat(printed.get(10)).matches("\\[arena] progress: node-modes recorded node-modes: 10 cases done in \\S+"
                + "( \\S+)?, 1 error, \\$0\\.0000 spent");
    }

    @Test
    void aDatasetMethodIsNotCalledTwiceToCountItsCasesSoTheLinesSayHowManyAreDone() {
        List<String> printed = progressLines(new EngineRun(output).with(Constants.NODES, "summary")
                .with(Constants.OUTPUT_PROGRESS, "on").with(Constants.OUTPUT_PROGRESS_INTERVAL, "0"),
                TriageFixture.class);

        // 40 tickets on each of two models, and each model's last line
        assertThat(printed).hasSize(82);
        assertThat(printed).filteredOn(line -> line.contains(" of ")).isEmpty();
        assertThat(printed.get(0)).startsWith("[arena] progress: triage-fixture sim_small tickets: 1 case done, ");
        assertThat(printed.get(39)).startsWith("[arena] progress: triage-fixture sim_small tickets: 40 cases done, ");
        assertThat(printed.get(40)).startsWith("[arena] progress: triage-fixture sim_small tickets: 40 cases done in ");
        assertThat(printed.get(81)).startsWith("[arena] progress: triage-fixture sim_large tickets: 40 cases done in ");
    }

    @Test
    void offPrintsNoneAndNeitherDoesARunShorterThanTheInterval() {
        assertThat(progressLines(new EngineRun(output.resolve("off")).with(Constants.NODES, "summary")
                .with(Constants.OUTPUT_PROGRESS, "off").with(Constants.OUTPUT_PROGRESS_INTERVAL, "0"),
                NodeModesFixture.class)).isEmpty();
        // YAML reads an unquoted off as false
        assertThat(progressLines(new EngineRun(output.resolve("false")).with(Constants.NODES, "summary")
                .with(Constants.OUTPUT_PROGRESS, "false").with(Constants.OUTPUT_PROGRESS_INTERVAL, "0"),
                NodeModesFixture.class)).isEmpty();
        assertThat(progressLines(new EngineRun(output.resolve("short")).with(Constants.NODES, "summary")
                .with(Constants.OUTPUT_PROGRESS, "on").with(Constants.OUTPUT_PROGRESS_INTERVAL, "3600"),
                NodeModesFixture.class)).isEmpty();
    }

    @Test
    void aSettingThatIsNotOneMeansTheEvalCannotRunNamingTheKeyAndTheValue() {
        for (String[] wrong : List.of(new String[] {Constants.OUTPUT_PROGRESS, "sometimes"},
                new String[] {Constants.OUTPUT_PROGRESS_INTERVAL, "-1"},
                new String[] {Constants.OUTPUT_PROGRESS_INTERVAL, "1.5"})) {
            EngineRun run = new EngineRun(output.resolve("wrong")).with(wrong[0], wrong[1]);
            progressLines(run, NodeModesFixture.class);
            run.results().allEvents().assertThatEvents().haveExactly(1, event(test("cannot-run"),
                    finishedWithFailure(message(text -> text.contains(wrong[0]) && text.contains(wrong[1])))));
        }
    }

    private static List<String> progressLines(EngineRun run, Class<?> evalClass) {
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            run.execute(evalClass);
        }
        finally {
            System.setOut(console);
        }
        return printed.toString(StandardCharsets.UTF_8).lines().filter(line -> line.startsWith("[arena] progress:"))
                .collect(Collectors.toList());
    }
}
