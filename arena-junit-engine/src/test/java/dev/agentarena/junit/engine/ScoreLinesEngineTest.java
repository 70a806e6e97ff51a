package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.TriageFixture;

/**
 * {@code arena.output.score-lines}: how many scorer tests print their {@code [arena]} line. Past the limit one line
 * says where every result is, and every result is still written.
 */
class ScoreLinesEngineTest {

    // 40 cases on two models, one scorer
    private static final int TESTS = 80;

    @TempDir
    Path output;

    @Test
    void byDefaultEveryTestOfARunOfUpTo250TestsPrintsItsLine() {
        List<String> printed = printedBy(new EngineRun(output));

        assertThat(scoreLines(printed)).hasSize(TESTS);
        assertThat(printed).noneMatch(line -> line.startsWith("[arena] score lines:"));
    }

    @Test
    void pastTheLimitOneLineSaysWhereEveryResultIsAndEveryResultIsStillWritten() {
        EngineRun run = new EngineRun(output).with(Constants.OUTPUT_SCORE_LINES, "5");
        List<String> printed = printedBy(run);

        assertThat(scoreLines(printed)).hasSize(5);
        assertThat(printed).filteredOn(line -> line.startsWith("[arena] score lines:")).containsExactly(
                "[arena] score lines: the first 5 tests printed theirs; every result is in "
                        + output.resolve("results.jsonl").toAbsolutePath().normalize()
                        + " (arena.output.score-lines=all prints every one)");
        assertThat(run.lines()).hasSize(TESTS);
        assertThat(run.results().testEvents().finished().count()).isEqualTo(TESTS);
    }

    @Test
    void noneAndAllAreLimitsToo() {
        List<String> none = printedBy(new EngineRun(output.resolve("none")).with(Constants.OUTPUT_SCORE_LINES, "0"));
        List<String> all = printedBy(new EngineRun(output.resolve("all")).with(Constants.OUTPUT_SCORE_LINES, "all"));

        assertThat(scoreLines(none)).isEmpty();
        assertThat(none).anyMatch(line -> line.startsWith("[arena] score lines: none are printed; every result is in"));
        assertThat(scoreLines(all)).hasSize(TESTS);
    }

    @Test
    void aLimitThatIsNotOneMeansTheEvalCannotRunNamingTheKeyAndTheValue() {
        for (String wrong : List.of("-1", "many", "1.5")) {
            EngineRun run = new EngineRun(output.resolve("wrong")).with(Constants.OUTPUT_SCORE_LINES, wrong);
            printedBy(run);
            run.results().allEvents().assertThatEvents().haveExactly(1, event(test("cannot-run"), finishedWithFailure(message(
                    text -> text.contains("arena.output.score-lines") && text.contains(wrong)))));
        }
    }

    private static List<String> printedBy(EngineRun run) {
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            run.execute(TriageFixture.class);
        }
        finally {
            System.setOut(console);
        }
        return Arrays.asList(printed.toString(StandardCharsets.UTF_8).split("\n"));
    }

    private static List<String> scoreLines(List<String> printed) {
        return printed.stream().filter(line -> line.startsWith("[arena] triage-fixture ")).collect(Collectors.toList());
    }
}
