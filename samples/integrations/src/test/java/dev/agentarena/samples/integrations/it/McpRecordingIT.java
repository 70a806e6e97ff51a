package dev.agentarena.samples.integrations.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.Eval;
import dev.agentarena.samples.integrations.mcp.SupportDeskServer;
import dev.agentarena.samples.integrations.mcp.replay.LangChain4jMcpAgentEvalTest;
import dev.agentarena.samples.integrations.mcp.replay.SpringAiMcpAgentEvalTest;

/**
 * The MCP agents' recordings: both evals are recorded again against the support desk's MCP server running in
 * process, their MCP tool calls are tool steps of the trajectories, and what they record is what the build committed
 * under {@code arena-recordings/sim_large/}; then, with the server stopped, a replay takes the same steps without
 * starting it, as the build's own replay did (Surefire execution {@code replay}). To make the recordings again, run
 * this test and copy {@code target/it-mcp-recordings/sim_large/} over them.
 */
class McpRecordingIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path COMMITTED = Paths.get("src/test/resources/arena-recordings/sim_large");
    private static final List<Class<?>> EVALS = List.of(LangChain4jMcpAgentEvalTest.class,
            SpringAiMcpAgentEvalTest.class);

    @AfterEach
    void stopServer() {
        SupportDeskServer.stop();
    }

    @Test
    void theCommittedRecordingsAreWhatTheRunningServerGivesAndReplayNeedsNoServer() throws IOException {
        Path recordings = Paths.get("target/it-mcp-recordings").toAbsolutePath();
        // record keeps the entries of calls no longer made: start from nothing, as a fresh recording would
        delete(recordings);
        Map<Class<?>, Map<String, JsonNode>> recorded = new LinkedHashMap<>();
        for (Class<?> eval : EVALS) {
            recorded.put(eval, run(eval, "record", recordings, "target/it-mcp-record"));
        }
        assertThat(SupportDeskServer.starts()).as("the server was started for the recording").isPositive();
        recorded.forEach((eval, cases) -> {
            assertThat(cases).as(eval.getSimpleName()).hasSize(8);
            assertThat(cases.get("escalate_manager").get("trajectory")).extracting(step -> step.get("type").asText()
                    + (step.has("name") ? " " + step.get("name").asText() : "")).as(eval.getSimpleName())
                    .containsExactly("model", "tool lookup_order", "model", "tool escalate", "model");
            assertThat(cases.values()).allSatisfy(line -> assertThat(line.get("status").asText()).as(
                    eval.getSimpleName() + " " + line.get("case_id").asText()).isNotEqualTo("error"));
        });
        List<Path> written = files(recordings.resolve("sim_large"));
        // every case asks the server for its tools, which both clients list
        assertThat(written).filteredOn(file -> file.toString().contains("/mcp/support-desk/")).hasSize(8);
        for (Path file : written) {
            Path relative = recordings.resolve("sim_large").relativize(file);
            assertThat(file).as(relative.toString()).hasSameTextualContentAs(COMMITTED.resolve(relative));
        }

        SupportDeskServer.stop();
        int starts = SupportDeskServer.starts();
        for (Class<?> eval : EVALS) {
            Map<String, JsonNode> replayed = run(eval, "replay", COMMITTED.getParent().toAbsolutePath(),
                    "target/it-mcp-replay");
            Map<String, JsonNode> built = byCase(Paths.get("target/arena-replay/results.jsonl"), eval);
            recorded.get(eval).forEach((id, line) -> {
                String what = eval.getSimpleName() + " " + id;
                assertThat(steps(replayed.get(id))).as(what + ": the replay's steps").isEqualTo(steps(line));
                assertThat(steps(built.get(id))).as(what + ": the build's replay's steps").isEqualTo(steps(line));
                assertThat(replayed.get(id).get("output")).as(what + ": the replay's answer")
                        .isEqualTo(line.get("output"));
            });
        }
        assertThat(SupportDeskServer.starts()).as("servers started by the replays").isEqualTo(starts);
    }

    private static Map<String, JsonNode> run(Class<?> eval, String mode, Path recordings, String output)
            throws IOException {
        Path work = Paths.get(output, eval.getSimpleName()).toAbsolutePath();
        delete(work);
        EngineTestKit.engine("agent-arena")
                .configurationParameter("arena.cache.mode", mode)
                .configurationParameter("arena.cache.dir", recordings.toString())
                .configurationParameter("arena.output.dir", work.toString())
                .selectors(selectClass(eval)).execute();
        return byCase(work.resolve("results.jsonl"), eval);
    }

    /** The {@code contains} line of each case of an eval in a results file. */
    private static Map<String, JsonNode> byCase(Path results, Class<?> eval) throws IOException {
        String name = eval.getAnnotation(Eval.class).value();
        return Files.readAllLines(results).stream().map(McpRecordingIT::parse)
                .filter(line -> line.get("eval").asText().equals(name))
                .filter(line -> line.get("scorer").asText().equals("contains"))
                .collect(Collectors.toMap(line -> line.get("case_id").asText(), line -> line));
    }

    /** A trajectory without what differs between a call and its replay: timings, cost and the replayed flag. */
    private static List<JsonNode> steps(JsonNode line) {
        List<JsonNode> steps = new ArrayList<>();
        for (JsonNode step : line.path("trajectory")) {
            ObjectNode kept = step.deepCopy();
            kept.remove(List.of("latency_ms", "duration_ms", "cost_usd", "replayed"));
            steps.add(kept);
        }
        return steps;
    }

    private static List<Path> files(Path directory) throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static void delete(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
