package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.mcp.LoopbackMcpServer;
import dev.agentarena.junit.engine.fixtures.mcp.McpAgentFixtures;

/**
 * An agent whose tools come from a real MCP server (the official SDK's, in process) runs through the engine: every
 * MCP tool call is a tool step of its trajectory; recorded, the run replays with the server stopped and takes the
 * same steps without connecting to it; a tool result that changed since the recording, or a call never recorded, is
 * an error of its case that says so. For a LangChain4j AI service and a Spring AI {@code ChatClient} alike.
 */
class McpToolsEngineTest {

    @TempDir
    Path output;

    @TempDir
    Path recordings;

    @AfterEach
    void restore() {
        McpAgentFixtures.status = "shipped on 2 May";
        McpAgentFixtures.serverUrl = "http://127.0.0.1:9/mcp";
        McpAgentFixtures.connections.set(0);
    }

    @ParameterizedTest
    @ValueSource(classes = {McpAgentFixtures.LangChain4jAgent.class, McpAgentFixtures.SpringAiAgent.class})
    void mcpToolCallsAreToolStepsRecordedAndReplayedWithTheServerStopped(Class<?> agent) throws IOException {
        List<String> recorded;
        try (LoopbackMcpServer server = LoopbackMcpServer.start(McpAgentFixtures.tools())) {
            McpAgentFixtures.serverUrl = server.url();
            EngineRun run = run("record").execute(agent);
            assertThat(run.line("order_status", "contains").get("status").asText()).isEqualTo("passed");
            assertThat(run.line("refund", "trajectory").get("status").asText()).isEqualTo("passed");
            assertThat(server.calls).containsExactlyInAnyOrder("lookup_order {orderId=1234}",
                    "lookup_order {orderId=42}", "refund {orderId=42}",
                    // the simulated agent tries a failed call once more
                    "lookup_order {orderId=0}", "lookup_order {orderId=0}");
            recorded = toolSteps(run);
        }
        assertThat(recorded).hasSize(5).startsWith(
                "order_status lookup_order {\"orderId\":1234} → " + result(agent, "Order 1234 shipped on 2 May."),
                "refund lookup_order {\"orderId\":42} → " + result(agent, "Order 42 shipped on 2 May."),
                "refund refund {\"orderId\":42} → " + result(agent, "The refund of order 42 is started."));
        // the server's error, as the library words it, and the simulated agent's one retry
        assertThat(recorded.subList(3, 5)).allSatisfy(step -> assertThat(step)
                .startsWith("no_order lookup_order {\"orderId\":0} ✘ ").contains("No order 0."));
        assertThat(mcpRecordings()).containsExactlyInAnyOrder("sim_large/mcp/support/order_status.json",
                "sim_large/mcp/support/refund.json", "sim_large/mcp/support/no_order.json");
        McpAgentFixtures.connections.set(0);

        // the server is stopped: the listing and every call come from the recording
        EngineRun replayed = run("replay").execute(agent);
        assertThat(toolSteps(replayed)).isEqualTo(recorded);
        assertThat(replayed.line("refund", "trajectory").get("status").asText()).isEqualTo("passed");
        assertThat(McpAgentFixtures.connections).as("clients built in the replay").hasValue(0);
    }

    @ParameterizedTest
    @ValueSource(classes = {McpAgentFixtures.LangChain4jAgent.class, McpAgentFixtures.SpringAiAgent.class})
    void aToolResultThatChangedSinceTheRecordingIsAMissOfItsCase(Class<?> agent) throws IOException {
        try (LoopbackMcpServer server = LoopbackMcpServer.start(McpAgentFixtures.tools())) {
            McpAgentFixtures.serverUrl = server.url();
            run("record").execute(agent);

            McpAgentFixtures.status = "lost in transit";
            EngineRun verified = run("replay").with(Constants.CACHE_MCP_TOOLS, "live").execute(agent);
            verified.assertNode("order_status", "contains", "error", "The answer to tool 'lookup_order' (call 1, "
                    + "arguments {\"orderId\":1234}) of MCP server 'support' for model 'sim_large', case "
                    + "'order_status', repeat 0 is not the one recorded in ");
            assertThat(verified.line("order_status", "contains").get("reason").asText()).contains(
                    "(arena.cache.mcp-tools=live): recorded '" + result(agent, "Order 1234 shipped on 2 May.")
                            + "', now '" + result(agent, "Order 1234 lost in transit.") + "'");
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {McpAgentFixtures.LangChain4jAgent.class, McpAgentFixtures.SpringAiAgent.class})
    void aReplayWithoutTheServersRecordingIsAMissNamingTheServerAndHowToRecord(Class<?> agent) throws IOException {
        try (LoopbackMcpServer server = LoopbackMcpServer.start(McpAgentFixtures.tools())) {
            McpAgentFixtures.serverUrl = server.url();
            run("record").execute(agent);
        }
        McpAgentFixtures.connections.set(0);
        Path file = recordings.resolve("sim_large/mcp/support/order_status.json");
        Files.delete(file);

        EngineRun replayed = run("replay").execute(agent);
        replayed.assertNode("order_status", "contains", "error", "No recording of the tool listing of MCP server "
                + "'support' for model 'sim_large', case 'order_status', repeat 0 in " + file
                + ": nothing is recorded for this case. Record it with -Darena.cache.mode=record while the server "
                + "runs");
        assertThat(replayed.line("refund", "contains").get("status").asText()).isEqualTo("passed");
        assertThat(McpAgentFixtures.connections).hasValue(0);
    }

    private EngineRun run(String mode) throws IOException {
        Path out = Files.createTempDirectory(output, mode);
        return new EngineRun(out).with(Constants.CACHE_MODE, mode).with(Constants.CACHE_DIR, recordings.toString())
                .with("arena.models.sim_large.wrong-tool-rate", "0")
                .with("arena.models.sim_large.wrong-argument-rate", "0")
                .with("arena.models.sim_large.missing-argument-rate", "0")
                .with("arena.models.sim_large.extra-call-rate", "0")
                .with("arena.models.sim_large.loop-rate", "0");
    }

    /**
     * A tool's text as the agent's library hands it on: LangChain4j gives the MCP result's text, Spring AI's MCP tool
     * callback the JSON of its content.
     */
    private static String result(Class<?> agent, String text) {
        return agent == McpAgentFixtures.SpringAiAgent.class ? "[{\"text\":\"" + text + "\"}]" : text;
    }

    /** Each case's tool steps, in order: case, tool, arguments and result. */
    private static List<String> toolSteps(EngineRun run) {
        List<String> steps = new ArrayList<>();
        for (String caseId : List.of("order_status", "refund", "no_order")) {
            for (JsonNode step : run.line(caseId, "contains").get("trajectory")) {
                if (step.get("type").asText().equals("tool")) {
                    steps.add(caseId + " " + step.get("name").asText() + " " + step.get("arguments")
                            + (step.hasNonNull("error") ? " ✘ " + step.get("error").asText()
                                    : " → " + step.get("result").asText()));
                }
            }
        }
        return steps;
    }

    private List<String> mcpRecordings() throws IOException {
        try (Stream<Path> files = Files.walk(recordings)) {
            return files.filter(Files::isRegularFile).map(recordings::relativize).map(Path::toString)
                    .filter(path -> path.contains("/mcp/")).toList();
        }
    }
}
