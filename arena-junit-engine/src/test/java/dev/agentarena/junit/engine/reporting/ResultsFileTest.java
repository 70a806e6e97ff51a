package dev.agentarena.junit.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.results.ResultLineCodec;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.SinkText;

class ResultsFileTest {

    @TempDir
    Path dir;

    @Test
    void halfASurrogatePairBecomesAReplacementCharacterAndEveryLaterLineIsWhole() throws Exception {
        // a reason or output cut inside an emoji: the UTF-8 encoder refuses the lone half
        String cut = "thumbs \uD83D";
        try (ResultsFile file = new ResultsFile(dir, new ReportingSession())) {
            file.resultReported(record("a", cut, "out \uDC4D put"), null);
            file.resultReported(record("b", "fine 👍", "ok"), null);
        }

        List<String> lines = Files.readAllLines(dir.resolve(ResultsFile.FILE_NAME), StandardCharsets.UTF_8);
        assertThat(lines).hasSize(2);
        ObjectMapper json = new ObjectMapper();
        JsonNode first = json.readTree(lines.get(0));
        assertThat(first.get("reason").asText()).isEqualTo("thumbs \uFFFD");
        assertThat(first.get("output").asText()).isEqualTo("out \uFFFD put");
        assertThat(json.readTree(lines.get(1)).get("reason").asText()).isEqualTo("fine 👍");
    }

    @Test
    void linesPreparedOnOtherThreadsAreWrittenInReportOrderAndEqualResultsAreStillTwoLines() throws Exception {
        ResultRecord first = record("a", "half \uD83D", "one");
        ResultRecord second = record("b", "fine", "two");
        ResultRecord twin = record("b", "fine", "two");
        ResultRecord unprepared = record("c", "late", "three");
        try (ResultsFile file = new ResultsFile(dir, new ReportingSession())) {
            Thread worker = new Thread(() -> {
                file.resultComputed(second, null);
                file.resultComputed(first, null);
                file.resultComputed(twin, null);
            });
            worker.start();
            worker.join();
            // results computed but never reported (a scorer not selected) are let go of once there are too many
            for (int i = 0; i < ResultsFile.PREPARED_LINES + 10; i++) {
                file.resultComputed(record("dropped-" + i, "", ""), null);
            }
            file.resultReported(first, null);
            file.resultReported(second, null);
            file.resultReported(twin, null);
            file.resultReported(unprepared, null);
        }

        List<String> lines = Files.readAllLines(dir.resolve(ResultsFile.FILE_NAME), StandardCharsets.UTF_8);
        assertThat(lines).containsExactly(SinkText.wellFormed(line(first)), line(second),
                line(twin), line(unprepared));
        assertThat(lines.get(0)).contains("half \uFFFD");
    }

    @Test
    void aDiskThatFillsMidLineLeavesNoHalfLineAndTheErrorNamesTheFile() throws Exception {
        AtomicLong room = new AtomicLong(Long.MAX_VALUE);
        ResultRecord first = record("a", "fine", "one");
        ResultRecord big = record("b", "long", "x".repeat(20_000));
        ResultRecord after = record("c", "fine", "three");
        Path results = dir.resolve(ResultsFile.FILE_NAME);
        try (ResultsFile file = new ResultsFile(dir, new ReportingSession(), FullDiskChannel.opener(room))) {
            file.resultReported(first, null);
            long firstLine = Files.size(results);
            // room for part of the long line: the write takes what fits, then fails
            room.set(10_000);

            assertThatThrownBy(() -> file.resultReported(big, null)).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("Cannot write the result of b/exact_match to " + results)
                    .hasMessageContaining("No space left on device")
                    .hasMessageContaining("every line written before it, whole");
            assertThat(Files.size(results)).as("cut back to the last whole line").isEqualTo(firstLine);

            // room again (a cleaned-up disk): the next result is written after the last whole line
            room.set(Long.MAX_VALUE);
            file.resultReported(after, null);
        }

        assertThat(Files.readAllLines(results, StandardCharsets.UTF_8))
                .containsExactly(line(first), line(after));
    }

    @Test
    void aFullDiskAtTheFirstLineLeavesAnEmptyFile() throws Exception {
        AtomicLong room = new AtomicLong(7);
        try (ResultsFile file = new ResultsFile(dir, new ReportingSession(), FullDiskChannel.opener(room))) {
            assertThatThrownBy(() -> file.resultReported(record("a", "fine", "one"), null))
                    .hasMessageContaining(dir.resolve(ResultsFile.FILE_NAME).toString());
        }
        assertThat(dir.resolve(ResultsFile.FILE_NAME)).isEmptyFile();
    }

    @Test
    void resultsWithoutATestWaitForTheNextTestAndAreWrittenWholeInReportOrder() throws Exception {
        Path results = dir.resolve(ResultsFile.FILE_NAME);
        ResultRecord a = record("a", "fine", "one");
        ResultRecord b = record("b", "fine", "two");
        ResultRecord c = record("c", "fine", "three");
        ResultRecord d = record("d", "fine", "four");
        ResultRecord e = record("e", "fine", "five");
        try (ResultsFile file = new ResultsFile(dir, new ReportingSession())) {
            file.resultWithoutTest(a, null);
            file.resultWithoutTest(b, null);
            assertThat(results).as("gathered, not written yet").doesNotExist();
            assertThat(file.writtenAny()).isTrue();

            // a test's result: on disk when its test has finished, after every line gathered before it
            file.resultReported(c, null);
            assertThat(Files.readAllLines(results, StandardCharsets.UTF_8))
                    .containsExactly(line(a), line(b), line(c));

            // a summary test reports: the results it stands for are on disk
            file.resultWithoutTest(d, null);
            file.scoreSummaryReported(null);
            assertThat(Files.readAllLines(results, StandardCharsets.UTF_8)).hasSize(4).endsWith(line(d));

            file.resultWithoutTest(e, null);
        }
        // and the last ones at the end
        assertThat(Files.readAllLines(results, StandardCharsets.UTF_8)).containsExactly(line(a),
                line(b), line(c), line(d), line(e));
    }

    @Test
    void aFullBatchIsWrittenAtALineBoundaryWithoutWaitingForATest() throws Exception {
        Path results = dir.resolve(ResultsFile.FILE_NAME);
        try (ResultsFile file = new ResultsFile(dir, new ReportingSession())) {
            int added = 0;
            while (!Files.exists(results)) {
                file.resultWithoutTest(record("case-" + added, "fine", "output " + added), null);
                added++;
            }
            byte[] written = Files.readAllBytes(results);
            assertThat(written.length).isGreaterThanOrEqualTo(ResultsFile.BATCH_BYTES);
            assertThat(written[written.length - 1]).as("whole lines only").isEqualTo((byte) '\n');
            assertThat(Files.readAllLines(results, StandardCharsets.UTF_8)).hasSize(added)
                    .endsWith(line(record("case-" + (added - 1), "fine", "output " + (added - 1))));
        }
    }

    @Test
    void aBatchThatFillsTheDiskIsCutBackToTheLastWholeLineAndTheErrorNamesItsResults() throws Exception {
        AtomicLong room = new AtomicLong(Long.MAX_VALUE);
        Path results = dir.resolve(ResultsFile.FILE_NAME);
        try (ResultsFile file = new ResultsFile(dir, new ReportingSession(), FullDiskChannel.opener(room))) {
            file.resultReported(record("first", "fine", "one"), null);
            long firstLine = Files.size(results);
            file.resultWithoutTest(record("a", "fine", "x".repeat(2_000)), null);
            file.resultWithoutTest(record("b", "fine", "x".repeat(2_000)), null);
            file.resultWithoutTest(record("c", "fine", "x".repeat(2_000)), null);
            // room for the first line of the batch and part of the second: the write takes what fits, then fails
            room.set(3_000);

            assertThatThrownBy(() -> file.scoreSummaryReported(null)).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("Cannot write the 3 results from a/exact_match to c/exact_match to "
                            + results)
                    .hasMessageContaining("No space left on device")
                    .hasMessageContaining("every line written before them, whole");
            assertThat(Files.size(results)).as("cut back to the last whole line").isEqualTo(firstLine);

            // room again: the next results go on after the last whole line
            room.set(Long.MAX_VALUE);
            file.resultWithoutTest(record("d", "fine", "four"), null);
            file.flush();
            assertThat(Files.readAllLines(results, StandardCharsets.UTF_8))
                    .containsExactly(line(record("first", "fine", "one")),
                            line(record("d", "fine", "four")));
        }
    }

    /** The record's line as the codec writes it, without its line break. */
    private static String line(ResultRecord record) {
        byte[] line = new ResultLineCodec.Writer(0).line(record, null);
        return new String(line, 0, line.length - 1, StandardCharsets.UTF_8);
    }

    private static ResultRecord record(String caseId, String reason, String output) {
        return new ResultRecord("eval", "sim_small", "cases", caseId, "exact_match", "v1", "eval-exact-match", 0, 0.0,
                false, ResultStatus.FAILED, reason, Map.of(), 1L, 0, 0, 0.0, false, 1.0, List.of(), null, output);
    }
}
