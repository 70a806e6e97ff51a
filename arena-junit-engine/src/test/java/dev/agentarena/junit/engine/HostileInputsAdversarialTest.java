package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.fixtures.TwoDatasetFixture;
import dev.agentarena.junit.engine.fixtures.agents.HandWrittenLoopFixture;
import dev.agentarena.junit.engine.fixtures.hostile.LongLoopFixture;
import dev.agentarena.junit.engine.fixtures.hostile.RepeatedToolIdsFixture;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;
import dev.agentarena.junit.engine.reporting.agreement.ExportLabels;
import dev.agentarena.junit.engine.reporting.merge.MergeShards;
import dev.agentarena.junit.engine.reporting.report.CompareRuns;

/**
 * Issue 43: what a hostile or careless input must not do beyond its own case (lose a result, show wrong data, be
 * taken without a word). One test per point, each through the whole engine; {@code docs/guides/hardening.md} says
 * what holds.
 */
class HostileInputsAdversarialTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern WHOLE_TEXT = Pattern.compile("the whole text is in (texts/[^\\]]+)\\]");

    @TempDir
    Path output;

    @Test
    void toolCallsSharingAnIdKeepEveryCallAndResultPairedByPosition() {
        EngineRun run = new EngineRun(output).execute(RepeatedToolIdsFixture.class);

        assertBothToolStepsKept(run.line("two_orders", "answered"));
        assertThat(warnings(run)).singleElement().asString().contains("eval 'repeated-tool-ids'",
                "model 'scripted'", "first id 'call_0' in case 'two_orders'");
    }

    @Test
    void toolCallsSharingAnIdOverHttpKeepEveryCallAndResult() throws IOException {
        try (LoopbackOpenAi server = LoopbackOpenAi.answering(HostileInputsAdversarialTest::twoCallsOneId)) {
            EngineRun run = new EngineRun(output).with("arena.models.openai:local.base-url", server.baseUrl())
                    .execute(RepeatedToolIdsFixture.OverHttp.class);

            // the class runs its own @EvalModel too
            assertBothToolStepsKept(run.lines().stream().filter(line -> line.get("model").asText()
                    .equals("openai:local")).findFirst().orElseThrow());
            assertThat(warnings(run)).singleElement().asString().contains("model 'openai:local'", "'call_0'");
            // the results went back to the server as the task sent them, both answering call_0
            assertThat(server.requests.get(1).get("messages").findValuesAsText("tool_call_id"))
                    .containsExactly("call_0", "call_0");
        }
    }

    @Test
    void aPreviousRunWithAByteOrderMarkIsComparedAndExportedLikeAnyOther() throws IOException {
        new EngineRun(output).execute(TwoDatasetFixture.class);
        Path previous = Files.createDirectories(output.resolveSibling(output.getFileName() + "-previous"))
                .resolve("results.jsonl");
        byte[] lines = Files.readAllBytes(output.resolve("results.jsonl"));
        Files.write(previous, concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, lines));

        EngineRun run = new EngineRun(output).with(Constants.REPORT_COMPARE_TO, previous.toString())
                .execute(TwoDatasetFixture.class);

        assertThat(output.resolve("report.html")).as("the report, compared with the previous run").exists()
                .content().contains("\"unchanged\":6");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(CompareRuns.run(new String[] {previous.toString(), output.toString()}, new PrintStream(
                new ByteArrayOutputStream()), new PrintStream(err))).as(err.toString())
                .isEqualTo(CompareRuns.UNCHANGED);
        Path sheet = previous.resolveSibling("sheet.jsonl");
        assertThat(ExportLabels.run(new String[] {previous.toString(), "--format", "jsonl", "--output",
                sheet.toString()}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err)))
                .as(err.toString()).isEqualTo(ExportLabels.WRITTEN);
        assertThat(Files.readAllLines(sheet)).hasSize(run.lines().size());
    }

    @Test
    void mergedShardsKeepTheWholeTextsTheirLinesName() throws IOException {
        Path shards = output.resolve("run");
        for (String shard : List.of("1/2", "2/2")) {
            new EngineRun(shards).with(Constants.SHARD, shard).with(Constants.OUTPUT_TEXT_LIMIT, "100")
                    .execute(HandWrittenLoopFixture.HostileTool.class);
        }
        Path merged = output.resolve("merged");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = MergeShards.run(new String[] {"--output", merged.toString(), shards.toString()},
                new PrintStream(out), new PrintStream(err));

        assertThat(status).as(err.toString()).isEqualTo(MergeShards.MERGED);
        List<JsonNode> lines = Files.readAllLines(merged.resolve("results.jsonl")).stream().map(line -> {
            try {
                return JSON.readTree(line);
            }
            catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).toList();
        // the trajectory of the case with a huge tool result, and any reason cut at 100 characters
        List<String> named = new ArrayList<>();
        for (JsonNode line : lines) {
            if (line.hasNonNull("trajectory_file")) {
                named.add(line.get("trajectory_file").asText());
            }
            Matcher cut = WHOLE_TEXT.matcher(line.path("reason").asText());
            if (cut.find()) {
                named.add(cut.group(1));
            }
        }
        assertThat(named).anyMatch(file -> file.endsWith("trajectory.json"));
        assertThat(named).allSatisfy(file -> assertThat(merged.resolve(file)).isRegularFile());
        assertThat(out.toString()).contains("whole texts into " + merged.resolve("texts"));
    }

    @Test
    void aLongTrajectoryIsWrittenOnceAndShownByItsEnds() throws IOException {
        EngineRun run = new EngineRun(output).with(Constants.AGENT_MAX_STEPS, "2000")
                .execute(LongLoopFixture.class);

        int steps = 2 * LongLoopFixture.TOOL_CALLS + 1;
        for (String scorer : List.of("done", "steps")) {
            JsonNode line = run.line("long_loop", scorer);
            assertThat(line.get("status").asText()).as("the scorers saw every step").isEqualTo("passed");
            JsonNode shown = line.get("trajectory");
            assertThat(shown).hasSize(2 * 20 + 1);
            assertThat(shown.get(20).get("type").asText()).isEqualTo("omitted");
            assertThat(shown.get(20).get("steps").asInt()).isEqualTo(steps - 40);
            assertThat(line.toString().length()).as("a line of the ends, not of %s steps", steps)
                    .isLessThan(40_000);
            JsonNode whole = JSON.readTree(output.resolve(line.get("trajectory_file").asText()).toFile());
            assertThat(whole).hasSize(steps);
            assertThat(run.reportEntry("long_loop", scorer).get("trajectory")).as("the test's report entry")
                    .contains("21-1,981. not shown: the whole trajectory is in texts/").hasLineCount(41);
        }
    }

    @Test
    void aLongTrajectoryGivesAllureItsEndsOneSummaryStepAndOneWholeAttachment() {
        InMemoryAllure allure = new InMemoryAllure();
        allure.around(() -> new EngineRun(output).with(Constants.AGENT_MAX_STEPS, "2000")
                .execute(LongLoopFixture.class));

        int steps = 2 * LongLoopFixture.TOOL_CALLS + 1;
        // both scorers' tests: 41 steps of the trajectory, then the call and score steps
        assertThat(allure.stepNames()).filteredOn(name -> name.matches("[\\d,]+(-[\\d,]+)?\\. .*")).hasSize(2 * 41);
        assertThat(allure.stepNames()).contains(String.format(java.util.Locale.ROOT, "21-%,d. %,d steps not shown "
                + "(%,d model calls, %,d tool steps): see the attachment trajectory (whole)", steps - 20, steps - 40,
                (steps - 40) / 2 + 1, (steps - 40) / 2));
        assertThat(allure.attachments()).as("an attachment or two per step shown, not per step of the loop")
                .hasSizeLessThan(2 * 100);
    }

    @Test
    void toolArgumentsNestedThousandsDeepAreAnErrorSayingSo() {
        EngineRun run = new EngineRun(output).execute(LongLoopFixture.DeepArguments.class);

        run.assertNode("deep", "done", "error", "asks for tool 'nest' (id call_deep) with arguments nested more "
                + "than 500 levels deep");
    }

    @Test
    void aClassWhoseEvalNameAnEarlierExecutionTookIsRefusedNamingIt() throws IOException {
        SummaryGeneratingListener second = new SummaryGeneratingListener();
        try (LauncherSession session = LauncherFactory.openSession()) {
            // as Surefire executes one class at a time when it streams its tests
            session.getLauncher().execute(classRequest(EvalNamesEngineTest.FirstTriage.class));
            session.getLauncher().execute(classRequest(EvalNamesEngineTest.SecondTriage.class), second);
        }

        assertThat(second.getSummary().getFailures()).singleElement()
                .extracting(failure -> failure.getException().getMessage()).asString()
                .startsWith(EvalNamesEngineTest.SecondTriage.class.getName() + " cannot run: "
                        + EvalNamesEngineTest.FirstTriage.class.getName() + ", run earlier into the same output "
                        + "directory, is named 'triage' (@Eval) too");
        List<String> lines = Files.readAllLines(output.resolve("results.jsonl"));
        assertThat(lines).as("the first class's result, kept").anySatisfy(line -> assertThat(line)
                .contains("\"case_id\":\"only\"", "\"status\":\"passed\""));
    }

    private LauncherDiscoveryRequest classRequest(Class<?> evalClass) {
        return LauncherDiscoveryRequestBuilder.request().selectors(DiscoverySelectors.selectClass(evalClass))
                .filters(EngineFilter.includeEngines(Constants.ENGINE_ID))
                .configurationParameters(Map.of(Constants.OUTPUT_DIR, output.toString(), Constants.SIM_LATENCY_MS,
                        "0", Constants.OUTPUT_PROGRESS, "off"))
                .build();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static void assertBothToolStepsKept(JsonNode line) {
        assertThat(line.get("status").asText()).isEqualTo("passed");
        List<String> toolSteps = line.get("trajectory").findParents("type").stream()
                .filter(step -> step.get("type").asText().equals("tool"))
                .map(step -> step.get("id").asText() + " " + step.get("arguments") + " -> " + step.get("result")
                        .asText()).toList();
        assertThat(toolSteps).containsExactly("call_0 {\"order\":1} -> order 1 found",
                "call_0 {\"order\":2} -> order 2 found");
    }

    /** Two calls with the id {@code call_0}, then, once the results came, the answer. */
    private static LoopbackOpenAi.Reply twoCallsOneId(JsonNode request) {
        boolean answered = request.get("messages").findValues("role").stream()
                .anyMatch(role -> role.asText().equals("tool"));
        if (answered) {
            return LoopbackOpenAi.text("both looked up", "local", 10, 3);
        }
        ObjectNode body = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
                .put("model", "local");
        ObjectNode message = body.putArray("choices").addObject().put("index", 0).put("finish_reason", "tool_calls")
                .putObject("message").put("role", "assistant").putNull("content");
        for (int order = 1; order <= 2; order++) {
            ObjectNode call = message.withArray("tool_calls").addObject().put("id", "call_0").put("type", "function");
            call.putObject("function").put("name", "lookup").put("arguments", "{\"order\":" + order + "}");
        }
        body.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 3);
        return new LoopbackOpenAi.Reply(200, body.toString());
    }

    private static List<String> warnings(EngineRun run) {
        return run.results().allEvents().reportingEntryPublished().stream()
                .map(event -> event.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get("warning"))
                .filter(warning -> warning != null).toList();
    }
}
