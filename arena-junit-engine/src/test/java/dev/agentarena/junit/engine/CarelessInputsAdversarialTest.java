package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.config.MapConfigurationParameters;
import dev.agentarena.junit.engine.datasets.DatasetFiles;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetStream;
import dev.agentarena.junit.engine.fixtures.MisdeclaredFixtures;
import dev.agentarena.junit.engine.fixtures.labels.AnnotatedLabelsFixture;
import dev.agentarena.junit.engine.fixtures.labels.OtherEvalLabelsFixture;
import dev.agentarena.junit.engine.labels.EvalLabels;
import dev.agentarena.junit.engine.labels.RunLabels;
import dev.agentarena.junit.engine.reporting.baseline.Baseline;
import dev.agentarena.junit.engine.reporting.report.CompareRuns;

/**
 * Careless or hostile inputs that used to change more than their own line without a word (issue 43, points 5 and 6):
 * each is now one clear line naming what is at fault, and large files stay linear.
 */
class CarelessInputsAdversarialTest {

    @TempDir
    Path directory;

    private RunLabels labels(Path file) {
        return RunLabels.from(ArenaConfiguration.withoutFile(new MapConfigurationParameters(Map.of(
                Constants.LABELS_FILE, file.toString(), Constants.PROJECT_ROOT, directory.toString()))));
    }

    @Test
    void threeHundredThousandLabelsOfOneCaseLoadAndAreFoundInLinearTime() throws IOException {
        // every row labels another output of the same case and model: the check compared each with every earlier
        // one (121 s and more), and finding an output's label went through all of them
        int rows = 300_000;
        Path file = directory.resolve("labels.csv");
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("eval,case,model,output_digest,human_verdict\n");
            for (int i = 0; i < rows; i++) {
                out.write("qa,refund,sim_small," + digest(i) + "," + (i % 2 == 0 ? "pass" : "fail") + "\n");
            }
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();

        EvalLabels loaded = labels(file).load("qa", null).orElseThrow();
        int found = 0;
        for (int i = 0; i < rows; i++) {
            EvalLabels.Match match = loaded.find("refund", "sim_small", digest(i)).orElseThrow();
            if (!match.stale() && match.label().passed() == (i % 2 == 0)) {
                found++;
            }
        }

        long cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1_000_000_000L;
        assertThat(found).isEqualTo(rows);
        assertThat(cpuSeconds).as("CPU seconds to read, check and find them (pairwise: minutes)").isLessThan(30);
    }

    @Test
    void aContradictionAmongThreeHundredThousandLabelsIsFoundNamingBothLines() throws IOException {
        int rows = 300_000;
        Path file = directory.resolve("labels.csv");
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("eval,case,model,output_digest,human_verdict\n");
            for (int i = 0; i < rows; i++) {
                out.write("qa,refund,sim_small," + digest(i) + ",pass\n");
            }
            out.write("qa,refund,sim_small," + digest(0) + ",fail\n");
        }

        assertThatThrownBy(() -> labels(file).load("qa", null)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("label 1 output twice, differently")
                .hasMessageContaining("labels.csv:" + (rows + 2) + ": case 'refund' on sim_small is labelled fail "
                        + "here but pass at " + file + ":2\n");
    }

    @Test
    void aLabelWhoseVerdictContradictsItsScoreIsABadRow() throws IOException {
        Path file = Files.writeString(directory.resolve("labels.csv"), "eval,case,model,human_verdict,human_score\n"
                + "qa,refund,sim_small,pass,0.0\nqa,billing,sim_small,fail,0.5\nqa,tone,sim_small,pass,0.5\n");

        assertThatThrownBy(() -> labels(file).load("qa", null)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("has 2 bad rows")
                .hasMessageContaining("labels.csv:2: human_verdict pass contradicts human_score 0.0: a pass is a "
                        + "score of 0.5 or more")
                .hasMessageContaining("labels.csv:3: human_verdict fail contradicts human_score 0.5")
                .hasMessageNotContaining("labels.csv:4");
    }

    @Test
    void aLabelsFileWhoseEvalColumnNamesAnotherEvalStopsTheEvalNamingThatEval() {
        EngineRun run = new EngineRun(directory).execute(OtherEvalLabelsFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(EngineRun.cannotRun(
                "OtherEvalLabelsFixture"), finishedWithFailure(message(text -> text.contains("Labels file "
                        + "'other-eval-labels.csv' (@HumanLabels(\"other-eval-labels.csv\") on ")
                        && text.contains("has 2 labels, none of eval 'annotated-labels': its eval column names "
                                + "'annotated-label' (2 rows)")))));
    }

    @Test
    void anAgreementGateOnAScorerNoEvalHasIsOneLine() {
        String console = printed(new EngineRun(directory).with(Constants.GATES_MIN_AGREEMENT + ".no_such_scorer",
                "0.6"), AnnotatedLabelsFixture.class);

        assertThat(console).contains("arena.gates.min-agreement.no_such_scorer=0.6 gates nothing: no eval of this "
                + "run has a scorer 'no_such_scorer' (its scorers: judge)");
    }

    @Test
    void anInfiniteScoreInAPreviousRunIsNotANumber() throws IOException {
        String line = "{\"eval\":\"qa\",\"model\":\"m\",\"dataset\":\"d\",\"case_id\":\"a\",\"scorer\":\"s\","
                + "\"status\":\"passed\",\"score\":%s}\n";
        Path previous = Files.writeString(directory.resolve("previous.jsonl"), String.format(line, "1e999"));
        Path current = Files.writeString(directory.resolve("current.jsonl"), String.format(line, "1.0"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = CompareRuns.run(new String[] {previous.toString(), current.toString()},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(status).isEqualTo(CompareRuns.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(previous + ", line 1: not a result (\"score\" is "
                + "Infinity, not a number from 0 to 1)");
    }

    @Test
    void anEvalInAnInnerClassOfASelectedClassIsADiscoveryWarning() {
        // a build tool selects the outer class only; the inner eval was skipped without a word
        List<DiscoveryIssue> issues = EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectClass(MisdeclaredFixtures.class)).discover().getDiscoveryIssues();

        assertThat(issues).singleElement().satisfies(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.WARNING);
            assertThat(issue.message()).startsWith(MisdeclaredFixtures.InnerEval.class.getName() + " is an eval in an "
                    + "inner class of " + MisdeclaredFixtures.class.getName() + ", and does not run")
                    .contains("Declare it static");
            assertThat(issue.source()).contains(ClassSource.from(MisdeclaredFixtures.InnerEval.class));
        });
        assertThat(EngineTestKit.engine(Constants.ENGINE_ID).selectors(selectClass(
                MisdeclaredFixtures.InnerEval.class)).discover().getDiscoveryIssues()).as("selected itself: one issue")
                .singleElement().satisfies(issue -> assertThat(issue.message()).contains("is an inner class"));
    }

    @Test
    void anIdThatDiffersOnlyAtItsEndsIsADuplicateSayingWhy() throws IOException {
        Files.writeString(directory.resolve("cases.jsonl"), "{\"id\": \"refund\", \"input\": \"a\"}\n"
                + "{\"id\": \" refund \", \"input\": \"b\"}\n");
        Files.writeString(directory.resolve("cases.csv"), "input,id\na,refund\nb, refund\n");

        for (String file : List.of("cases.jsonl", "cases.csv")) {
            List<DatasetRow> rows = new ArrayList<>();
            try (DatasetStream stream = DatasetFiles.open(file, null, directory)) {
                stream.forEachRemaining(rows::add);
            }

            assertThat(rows).extracting(DatasetRow::caseId).as(file).containsExactly("refund", "refund#2");
            boolean csv = file.endsWith("csv");
            assertThat(rows.get(1).error().orElseThrow()).as(file).endsWith((csv ? ":3" : ":2") + ": duplicate id '"
                    + (csv ? " refund" : " refund ") + "': it differs from 'refund' (line " + (csv ? 2 : 1) + ") "
                    + "only in whitespace or control characters, and tests show both as 'refund'");
        }
    }

    @Test
    void anExplicitIdOfTheShapeTheEngineMakesUpKeepsItAndTheDuplicateTakesAFreeOne() throws IOException {
        // the duplicate x would take x#2, then every one of x#2 .. x#1000 that later rows (or a spaced x#2) have
        StringBuilder jsonl = new StringBuilder("{\"id\": \"x\", \"input\": \"a\"}\n"
                + "{\"id\": \"x\", \"input\": \"b\"}\n");
        StringBuilder csv = new StringBuilder("id,input\nx,a\nx,b\n");
        for (int n = 2; n <= 1000; n++) {
            String id = n == 2 ? " x#2\t" : "x#" + n;
            jsonl.append("{\"id\": \"").append(id.replace("\t", "\\t")).append("\", \"input\": \"c\"}\n");
            csv.append('"').append(id).append("\",c\n");
        }
        Files.writeString(directory.resolve("ids.jsonl"), jsonl);
        Files.writeString(directory.resolve("ids.csv"), csv);

        for (String file : List.of("ids.jsonl", "ids.csv")) {
            List<DatasetRow> rows = new ArrayList<>();
            try (DatasetStream stream = DatasetFiles.open(file, null, directory)) {
                stream.forEachRemaining(rows::add);
            }

            assertThat(rows).as(file).hasSize(1001);
            assertThat(rows.get(1).caseId()).as(file).isEqualTo("x#1001");
            assertThat(rows.get(1).error().orElseThrow()).as(file).endsWith(": duplicate id 'x' (first at line "
                    + (file.endsWith("csv") ? 2 : 1) + ")");
            assertThat(rows.subList(2, 1001)).as(file).allSatisfy(row -> assertThat(row.error()).isEmpty());
            assertThat(rows).extracting(DatasetRow::caseId).as(file).doesNotHaveDuplicates();
        }
    }

    @Test
    void anInfiniteFigureInABaselineIsNotANumber() throws IOException {
        String entry = "{\"format\": \"" + Baseline.FORMAT + "\", \"entries\": [{\"eval\": \"qa\", \"model\": \"m\", "
                + "\"scorer\": \"s\", \"n\": 1, \"accuracy\": %s, \"scores\": {\"a\": %s}}]}";
        Path score = Files.writeString(directory.resolve("score.json"), String.format(entry, "1.0", "1e999"));
        Path accuracy = Files.writeString(directory.resolve("accuracy.json"), String.format(entry, "1e999", "1.0"));

        assertThatThrownBy(() -> Baseline.read(score)).isInstanceOf(IOException.class)
                .hasMessageContaining("entries[0], the score of case a is not a finite number");
        assertThatThrownBy(() -> Baseline.read(accuracy)).isInstanceOf(IOException.class)
                .hasMessageContaining("entries[0], \"accuracy\" is not a finite number");
    }

    /** What a run prints on the console. */
    private static String printed(EngineRun run, Class<?> evalClass) {
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            run.execute(evalClass);
        }
        finally {
            System.setOut(console);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    private static String digest(int i) {
        return String.format("%064x", i);
    }
}
