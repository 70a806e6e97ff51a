package dev.agentarena.junit.engine.reporting.report;

import static dev.agentarena.junit.engine.reporting.report.ReportFiles.line;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.reporting.baseline.Baseline;
import dev.agentarena.junit.engine.reporting.baseline.BaselineEntry;

class CaseReportTest {

    @TempDir
    Path dir;

    private static final Map<String, CaseReport.EvalClass> TRIAGE = Map.of("triage",
            new CaseReport.EvalClass("com.acme.TriageEvalTest", false));

    @Test
    void writesEveryResultOfEveryModelIntoThePage() throws IOException {
        List<ObjectNode> lines = new ArrayList<>();
        for (String model : List.of("sim_small", "sim_large")) {
            for (String id : List.of("a", "b", "c")) {
                lines.add(line(model, id, "exact_match", "passed", 1.0, "answer " + id));
                lines.add(line(model, id, "contains", "failed", 0.0, "answer " + id));
            }
        }
        Path results = ReportFiles.write(dir.resolve("results.jsonl"), lines);

        CaseReport.Outcome outcome = CaseReport.write(results, Optional.empty(), TRIAGE, 0.02,
                Optional.of(dir.resolve("report.html")));

        assertThat(outcome.results()).isEqualTo(12);
        assertThat(outcome.comparison()).isEmpty();
        ReportFiles.Page page = ReportFiles.read(outcome.file().orElseThrow());
        assertThat(page.records()).hasSize(12);
        assertThat(page.records()).extracting(r -> page.string(r.get(1)) + "/" + r.get(3).asText() + "/"
                + page.string(r.get(4))).contains("sim_small/a/exact_match", "sim_large/c/contains");
        // the second scorer's line of a case shares the first one's output, input and reference
        assertThat(page.records().get(0).get(17).asText()).isEqualTo("answer a");
        assertThat(page.records().get(1).get(17).asInt()).isEqualTo(1);
        assertThat(page.records().get(1).get(19).asInt()).isEqualTo(1);
        assertThat(page.meta().path("evals").path("triage").path("class").asText())
                .isEqualTo("com.acme.TriageEvalTest");
        assertThat(page.html()).contains("window.arenaReady = true", "id=\"arena-filter-status\"");
    }

    @Test
    void aResultsQueueTimeReachesThePageApartFromItsLatency() throws IOException {
        ObjectNode waited = line("sim_small", "a", "exact_match", "passed", 1.0, "x");
        waited.put("latency_ms", 120).put("queue_ms", 2400);
        ObjectNode free = line("sim_small", "b", "exact_match", "passed", 1.0, "y");
        free.put("latency_ms", 90);
        Path results = ReportFiles.write(dir.resolve("results.jsonl"), List.of(waited, free));

        CaseReport.Outcome outcome = CaseReport.write(results, Optional.empty(), TRIAGE, 0.02,
                Optional.of(dir.resolve("report.html")));

        ReportFiles.Page page = ReportFiles.read(outcome.file().orElseThrow());
        assertThat(page.records().get(0).get(11).asLong()).isEqualTo(120);
        assertThat(page.records().get(0).get(24).asLong()).as("queue time, after the cached tokens").isEqualTo(2400);
        assertThat(page.records().get(1).get(11).asLong()).isEqualTo(90);
        assertThat(page.records().get(1).has(24)).isFalse();
        assertThat(page.html()).contains("queued \" + run.queue + \" ms for its turn");
    }

    @Test
    void comparesEachCaseAndModelWithAnEarlierResultsFile() throws IOException {
        Path previous = ReportFiles.write(dir.resolve("previous.jsonl"), List.of(
                line("sim_small", "worse", "exact_match", "passed", 1.0, "refund the order today"),
                line("sim_small", "better", "exact_match", "failed", 0.0, "no idea"),
                line("sim_small", "same", "exact_match", "passed", 1.0, "billing"),
                line("sim_small", "gone", "exact_match", "passed", 1.0, "gone answer")));
        Path results = ReportFiles.write(dir.resolve("results.jsonl"), List.of(
                line("sim_small", "worse", "exact_match", "failed", 0.0, "refund the order tomorrow"),
                line("sim_small", "better", "exact_match", "passed", 1.0, "billing"),
                line("sim_small", "same", "exact_match", "passed", 1.0, "billing"),
                line("sim_small", "fresh", "exact_match", "passed", 1.0, "fresh")));

        CaseReport.Outcome outcome = CaseReport.write(results, Optional.of(previous), TRIAGE, 0.02,
                Optional.of(dir.resolve("report.html")));

        CaseReport.Comparison comparison = outcome.comparison().orElseThrow();
        assertThat(comparison.cells()).containsEntry(Change.REGRESSED, 1).containsEntry(Change.IMPROVED, 1)
                .containsEntry(Change.UNCHANGED, 1).containsEntry(Change.NEW, 1).containsEntry(Change.REMOVED, 1);
        assertThat(comparison.regressions()).singleElement().satisfies(r -> {
            assertThat(r.line()).isEqualTo("1 case regressed on sim_small in triage: tickets/worse");
        });
        assertThat(comparison.lines().get(0)).contains("1 regressed, 1 improved, 1 unchanged, 1 new, 1 removed");
        ReportFiles.Page page = ReportFiles.read(outcome.file().orElseThrow());
        Map<String, Integer> changes = new TreeMap<>();
        page.records().forEach(r -> changes.put(r.get(3).asText(), r.get(22).get(0).asInt()));
        assertThat(changes).containsEntry("worse", Change.REGRESSED.ordinal())
                .containsEntry("better", Change.IMPROVED.ordinal()).containsEntry("same", Change.UNCHANGED.ordinal())
                .containsEntry("fresh", Change.NEW.ordinal()).containsEntry("gone", Change.REMOVED.ordinal());
        JsonNode worse = page.records().get(0);
        assertThat(worse.get(17).asInt()).as("the output is the diff's new side").isEqualTo(2);
        assertThat(worse.get(22).get(3).toString())
                .isEqualTo("[0,\"refund the order \",-1,\"today\",1,\"tomorrow\"]");
        assertThat(page.records().get(2).get(22).get(3).isNull()).as("an equal output has no diff").isTrue();
        assertThat(page.meta().path("compare").path("lines").get(1).asText())
                .isEqualTo("1 case regressed on sim_small in triage: tickets/worse");
    }

    @Test
    void comparesWithABaselineFileByCaseScores() throws IOException {
        Path baseline = dir.resolve("arena-baseline.json");
        new Baseline("mean", List.of(new BaselineEntry("triage", "sim_small", "exact_match", "v1", 2, 0.5, 0, 1,
                0.5, Map.of("a", 1.0, "b", 0.0, "old", 1.0), Map.of("a", true, "b", false, "old", true))))
                .writeTo(baseline);
        Path results = ReportFiles.write(dir.resolve("results.jsonl"), List.of(
                line("sim_small", "a", "exact_match", "failed", 0.0, "x"),
                line("sim_small", "b", "exact_match", "failed", 0.0, "y")));

        CaseReport.Comparison comparison = CaseReport.write(results, Optional.of(baseline), Map.of(), 0.02,
                Optional.empty()).comparison().orElseThrow();

        assertThat(comparison.previous()).startsWith("the baseline ");
        assertThat(comparison.cells()).containsEntry(Change.REGRESSED, 1).containsEntry(Change.UNCHANGED, 1)
                .containsEntry(Change.REMOVED, 1);
        assertThat(comparison.regressions()).extracting(CaseReport.Regressions::names).containsExactly(List.of("a"));
    }

    @Test
    void namesAtMostTenRegressedCasesAndCountsTheRest() throws IOException {
        List<ObjectNode> before = new ArrayList<>();
        List<ObjectNode> after = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            before.add(line("sim_large", "c" + i, "exact_match", "passed", 1.0, "x"));
            after.add(line("sim_large", "c" + i, "exact_match", "failed", 0.0, "x"));
            // a second scorer of the same case regresses too: still one case
            before.add(line("sim_large", "c" + i, "contains", "passed", 1.0, "x"));
            after.add(line("sim_large", "c" + i, "contains", "failed", 0.0, "x"));
        }

        CaseReport.Comparison comparison = CaseReport.write(ReportFiles.write(dir.resolve("new.jsonl"), after),
                Optional.of(ReportFiles.write(dir.resolve("old.jsonl"), before)), Map.of(), 0.02, Optional.empty())
                .comparison().orElseThrow();

        assertThat(comparison.regressions()).singleElement().satisfies(r -> {
            assertThat(r.cases()).isEqualTo(25);
            assertThat(r.names()).hasSize(10);
            assertThat(r.line()).startsWith("25 cases regressed on sim_large in triage: tickets/c0, tickets/c1,")
                    .endsWith(" and 15 more");
        });
    }

    @Test
    void flagsScorersWhoseVersionChangedBetweenTheRuns() throws IOException {
        ObjectNode old = line("sim_small", "a", "exact_match", "passed", 1.0, "x");
        ObjectNode now = line("sim_small", "a", "exact_match", "passed", 1.0, "x");
        now.put("scorer_version", "v2");

        CaseReport.Comparison comparison = CaseReport.write(ReportFiles.write(dir.resolve("new.jsonl"), List.of(now)),
                Optional.of(ReportFiles.write(dir.resolve("old.jsonl"), List.of(old))), Map.of(), 0.02,
                Optional.empty()).comparison().orElseThrow();

        assertThat(comparison.versionChanges()).containsExactly("triage / exact_match: v1 → v2");
        assertThat(comparison.lines()).anySatisfy(l -> assertThat(l).contains("scorer version changed")
                .contains("triage / exact_match: v1 → v2"));
    }

    @Test
    void aBrokenResultsLineIsNamedByFileAndLine() throws IOException {
        Path results = dir.resolve("results.jsonl");
        Files.writeString(results, ReportFiles.JSON.writeValueAsString(line("m", "a", "s", "passed", 1.0, "x"))
                + "\n{not json\n");

        assertThatIoError(results).contains(results + ", line 2: not a result");
    }

    private static org.assertj.core.api.AbstractStringAssert<?> assertThatIoError(Path results) {
        try {
            CaseReport.write(results, Optional.empty(), Map.of(), 0.02, Optional.empty());
        }
        catch (IOException e) {
            return assertThat(e.getMessage());
        }
        throw new AssertionError("no error");
    }

    /** Strings that would break a page that trusted them. */
    static final List<String> HOSTILE = List.of(
            "<script>alert('HOSTILE1')</script>",
            "</script><script>alert('HOSTILE2')</script>",
            "<!-- HOSTILE3 <script>",
            "\" onmouseover=\"alert('HOSTILE4')\" x=\"",
            "' onclick='alert(5)' HOSTILE5 '",
            "javascript:alert('HOSTILE6')",
            "<img src=x onerror=alert('HOSTILE7')>",
            "HOSTILE8 \u2028 line \u2029 paragraph",
            "HOSTILE9 \u0000\u0001\u001b[31m\u007f\u0085\u009f controls",
            "HOSTILE10 \uFFFE\uFFFF\uFDD0 non-characters \uD83F\uDFFE",
            "HOSTILE11 lone \uD800 high and \uDC00 low",
            "HOSTILE12 \u202Egnp.exe\u202C \u2066isolate\u2069 \u200F",
            "HOSTILE13 ]]></x><![CDATA[ & &amp; &lt;",
            "HOSTILE14 " + "<b>".repeat(50_000));

    @Test
    void hostileTextsInEveryFieldStayDataAndComeBackUnchanged() throws IOException {
        List<ObjectNode> before = new ArrayList<>();
        List<ObjectNode> after = new ArrayList<>();
        for (int i = 0; i < HOSTILE.size(); i++) {
            String text = HOSTILE.get(i);
            for (List<ObjectNode> run : List.of(before, after)) {
                ObjectNode line = line(text, text + " case", text, run == before ? "passed" : "failed",
                        run == before ? 1.0 : 0.0, run == before ? "was " + text : text + " now");
                line.put("eval", text);
                line.put("dataset", text);
                line.put("scorer_version", text);
                line.put("reason", text);
                line.put("error", text);
                line.put("input", text);
                line.put("reference", text);
                // Jackson reads no lone surrogate in a field name (a results file never has one: it writes U+FFFD),
                line.putObject("metrics").put(metricName(text), 0.5);
                line.putArray("tags").add(text);
                line.putArray("trajectory").addObject().put("type", "tool").put("name", text).put("result", text);
                run.add(line);
            }
        }
        Path results = ReportFiles.write(dir.resolve("results.jsonl"), after);

        CaseReport.Outcome outcome = CaseReport.write(results,
                Optional.of(ReportFiles.write(dir.resolve("previous.jsonl"), before)), Map.of(), 0.02,
                Optional.of(dir.resolve("report.html")));

        // the console's lines name the regressed cases on one safe line each
        assertThat(outcome.comparison().orElseThrow().lines()).hasSizeGreaterThan(HOSTILE.size())
                .allSatisfy(l -> assertThat(l).doesNotContain("\n", "\r", "\u001b", "\u202E", "\u2028", "\uFFFE")
                        .hasSizeLessThan(2000));
        byte[] bytes = Files.readAllBytes(outcome.file().orElseThrow());
        strictUtf8(bytes);
        ReportFiles.Page page = ReportFiles.read(outcome.file().get());
        assertThat(page.records()).hasSize(HOSTILE.size());
        // nothing of the data outside its blocks: the markup is the template's
        for (int i = 1; i <= HOSTILE.size(); i++) {
            assertThat(page.outsideData()).doesNotContain("HOSTILE" + i);
        }
        assertThat(page.outsideData()).doesNotContain("alert(");
        // the blocks hold no character that could end them or confuse a parser
        for (String forbidden : List.of("</", "<!--", "<", ">", "&", "\u2028", "\u2029", "\u0000", "\u001b", "\u0085",
                "\uFFFE", "\uFFFF", "\uFDD0", "\u202E", "\u2066", "\u200F")) {
            assertThat(page.data()).as("the data blocks").doesNotContain(forbidden);
        }
        long blocks = java.util.regex.Pattern.compile("<script type=\"application/json\" (class|id)=").matcher(
                page.html()).results().count();
        assertThat(page.html().split("</script", -1).length - 1).as("script ends: the blocks' and the page script's")
                .isEqualTo(blocks + 1);
        // every field reads back as it was written, the output through its diff
        for (int i = 0; i < HOSTILE.size(); i++) {
            String text = HOSTILE.get(i);
            JsonNode r = page.records().get(i);
            assertThat(page.string(r.get(0))).isEqualTo(text);
            assertThat(page.string(r.get(1))).isEqualTo(text);
            assertThat(page.string(r.get(2))).isEqualTo(text);
            assertThat(r.get(3).asText()).isEqualTo(text + " case");
            assertThat(page.string(r.get(4))).isEqualTo(text);
            assertThat(page.string(r.get(5))).isEqualTo(text);
            assertThat(r.get(9).asText()).isEqualTo(text);
            assertThat(r.get(10).fieldNames().next()).isEqualTo(metricName(text));
            assertThat(r.get(16).asText()).isEqualTo(text);
            assertThat(page.string(r.get(18).get(0))).isEqualTo(text);
            assertThat(r.get(19).asText()).isEqualTo(text);
            assertThat(r.get(20).asText()).isEqualTo(text);
            assertThat(r.get(21).get(0).get("name").asText()).isEqualTo(text);
            assertThat(r.get(17).asInt()).isEqualTo(2);
            StringBuilder was = new StringBuilder();
            StringBuilder now = new StringBuilder();
            JsonNode diff = r.get(22).get(3);
            for (int s = 0; s + 1 < diff.size(); s += 2) {
                int op = diff.get(s).asInt();
                (op <= 0 ? was : now).append(op == 0 ? "" : diff.get(s + 1).asText());
                if (op == 0) {
                    now.append(diff.get(s + 1).asText());
                    was.append(diff.get(s + 1).asText());
                }
            }
            assertThat(was.toString()).isEqualTo("was " + text);
            assertThat(now.toString()).isEqualTo(text + " now");
        }
    }

    private static String metricName(String text) {
        // nor a field name past 50,000 characters
        String name = text.replace('\uD800', '?').replace('\uDC00', '?');
        return name.substring(0, Math.min(name.length(), 1000));
    }

    private static void strictUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
        }
        catch (CharacterCodingException e) {
            throw new AssertionError("report.html is not well-formed UTF-8", e);
        }
    }
}
