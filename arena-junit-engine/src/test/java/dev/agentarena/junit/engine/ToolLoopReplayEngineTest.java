package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.fixtures.recording.ToolLoopFixture;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;

/**
 * An agent's tool loop through the engine, recorded over HTTP and replayed with no key and no server: the replay gives
 * the same result, and a step whose request changed since the recording is an error of its case that names the call
 * and what changed.
 */
class ToolLoopReplayEngineTest {

    private static final String MODEL = "openai:gpt-4o-mini";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path output;

    @TempDir
    Path recordings;

    @AfterEach
    void restore() {
        ToolLoopFixture.orderStatus = "delivered";
    }

    @Test
    void aRecordedToolLoopReplaysOfflineAndAChangedStepIsAnErrorOfItsCase() throws IOException {
        try (LoopbackOpenAi server = LoopbackOpenAi.answering(ToolLoopReplayEngineTest::agent)) {
            EngineRun recorded = run("record").with("arena.models." + MODEL + ".base-url", server.baseUrl())
                    .execute(ToolLoopFixture.class);
            assertThat(recorded.line("refund_a17", "exact_match").get("status").asText()).isEqualTo("passed");
            assertThat(server.requests).hasSize(3);
        }
        try (Stream<Path> files = Files.walk(recordings)) {
            assertThat(files.filter(Files::isRegularFile)).hasSize(1);
        }

        // CI: the default base URL, no key, nothing listening
        EngineRun replayed = run("replay").execute(ToolLoopFixture.class);
        JsonNode line = replayed.line("refund_a17", "exact_match");
        assertThat(line.get("status").asText()).isEqualTo("passed");
        assertThat(line.get("cost_usd").asDouble()).isZero();

        ToolLoopFixture.orderStatus = "lost";
        EngineRun changed = run("replay").execute(ToolLoopFixture.class);
        changed.assertNode("refund_a17", "exact_match", "error", "for case 'refund_a17', repeat 0, call 2 ");
        assertThat(changed.line("refund_a17", "exact_match").get("reason").asText()).contains(
                "message 4 (tool result of lookup_order): recorded '{\"status\":\"delivered\"}', "
                        + "now '{\"status\":\"lost\"}'");
    }

    private EngineRun run(String mode) throws IOException {
        Path out = Files.createTempDirectory(output, mode);
        return new EngineRun(out).with(Constants.MODELS, MODEL).with(Constants.CACHE_MODE, mode)
                .with(Constants.CACHE_DIR, recordings.toString());
    }

    /** Looks the order up, refunds it, then answers: a step per tool result the request carries. */
    private static LoopbackOpenAi.Reply agent(JsonNode request) {
        int results = 0;
        for (JsonNode message : request.get("messages")) {
            results += message.path("role").asText().equals("tool") ? 1 : 0;
        }
        if (results == 2) {
            return LoopbackOpenAi.text("Refunded 12.50 for A-17.", "gpt-4o-mini-2024-07-18", 60, 10);
        }
        LoopbackOpenAi.Reply reply = results == 0
                ? LoopbackOpenAi.toolCall("lookup_order", "{\"order\":\"A-17\"}", "gpt-4o-mini-2024-07-18", 40, 8)
                : LoopbackOpenAi.toolCall("refund", "{\"order\":\"A-17\"}", "gpt-4o-mini-2024-07-18", 50, 8);
        try {
            // each call gets an id of its own, as a real model's do
            ObjectNode body = (ObjectNode) JSON.readTree(reply.body());
            ((ObjectNode) body.at("/choices/0/message/tool_calls/0")).put("id", "call_" + (results + 1));
            return new LoopbackOpenAi.Reply(200, body.toString());
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
