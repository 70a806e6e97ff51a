package dev.agentarena.junit.engine.models.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.TestConfigurations;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * Record/replay of an agent's tool loop: every field of a tool conversation is recorded, the loop replays step by
 * step with no key and no network, and a step whose request changed is a miss that names the call and what changed.
 */
class ToolLoopRecordingTest {

    private static final String MODEL = "openai:gpt-4o-mini";
    private static final EvalCase CASE = EvalCase.of("refund_request", "Refund order A-17", "refunded");
    private static final List<Map<String, Object>> TOOLS = List.of(tool("lookup_order"), tool("refund"),
            tool("notify_customer"));

    @TempDir
    Path root;

    /** The support agent's three steps, as a function of how many tool results the request carries. */
    private static Completion agent(ModelRequest request) {
        long results = request.messages().stream().filter(Message::isToolResult).count();
        if (results == 0) {
            return Completion.of("").withToolCalls(List.of(new ToolCall("lookup_order", Map.of("order", "A-17"),
                    "call_1"))).withTokens(40, 9);
        }
        if (results == 1) {
            return Completion.of("Refunding now.").withToolCalls(List.of(
                    new ToolCall("refund", Map.of("order", "A-17", "amount", 12.5), "call_2"),
                    new ToolCall("notify_customer", Map.of("order", "A-17"), "call_3"))).withTokens(60, 20);
        }
        return Completion.of("Refunded 12.50 for A-17.").withTokens(90, 12);
    }

    /** What the tools return: the order's status as given, a refund that works, a mail server that is down. */
    private static Function<ToolCall, Message> tools(String status) {
        return call -> switch (call.name()) {
            case "lookup_order" -> Message.toolResult(call, "{\"status\":\"" + status + "\",\"total\":12.5}");
            case "refund" -> Message.toolResult(call, "{\"refunded\":true}");
            default -> Message.toolError(call, "mail server down");
        };
    }

    /** A hand-written agent loop over one case's model: each tool call answered, until the model answers in text. */
    private static List<ModelAnswer> loop(ModelEndpoint model, ModelCall call, ModelRequest first,
            Function<ToolCall, Message> tools) {
        List<ModelAnswer> answers = new ArrayList<>();
        List<Message> conversation = new ArrayList<>(first.messages());
        for (int step = 0; step < 5; step++) {
            ModelAnswer answer = model.answer(first.withMessages(conversation), call);
            answers.add(answer);
            Completion completion = answer.completion();
            if (completion.toolCalls().isEmpty()) {
                return answers;
            }
            conversation.add(Message.assistant(completion.text(), completion.toolCalls()));
            completion.toolCalls().forEach(toolCall -> conversation.add(tools.apply(toolCall)));
        }
        throw new AssertionError("the loop did not end");
    }

    private static ModelRequest first() {
        return ModelRequest.ofPrompt(String.valueOf(CASE.input())).withSystem("You are a support agent.")
                .withTools(TOOLS).withToolChoice("auto").withTemperature(0);
    }

    private RecordingModel recording(String mode, ModelClient model) {
        return new RecordingModel(MODEL, ModelEndpoint.of(model), RecordingCache.from(
                TestConfigurations.configuration(root, Map.of("arena.cache.mode", mode))));
    }

    private void recordTheLoop() {
        List<ModelAnswer> live = loop(recording("record", ToolLoopRecordingTest::agent), new ModelCall(CASE, 0),
                first(), tools("delivered"));
        assertThat(live).hasSize(3).noneMatch(ModelAnswer::replayed);
    }

    @Test
    void aToolLoopRecordedOverHttpReplaysStepByStepWithNoKeyAndNoNetwork() throws Exception {
        List<JsonNode> received;
        List<ModelAnswer> live;
        try (LoopbackOpenAi server = LoopbackOpenAi.answering(ToolLoopRecordingTest::agentOverHttp);
                ModelRegistry registry = TestConfigurations.registry(root, Map.of("arena.cache.mode", "record",
                        "arena.models." + MODEL + ".base-url", server.baseUrl()), Map.of())) {
            live = loop(registry.endpoint(MODEL), new ModelCall(CASE, 0), first(), tools("delivered"));
            received = List.copyOf(server.requests);
        }
        assertThat(received).hasSize(3);
        assertThat(received.get(2).get("messages")).hasSize(7);

        // CI: the default base URL, no OPENAI_API_KEY, nothing listening
        List<ModelAnswer> replayed;
        try (ModelRegistry registry = TestConfigurations.registry(root, Map.of("arena.cache.mode", "replay"),
                Map.of())) {
            replayed = loop(registry.endpoint(MODEL), new ModelCall(CASE, 0), first(), tools("delivered"));
        }
        assertThat(replayed).hasSize(3).allMatch(ModelAnswer::replayed);
        for (int i = 0; i < 3; i++) {
            assertThat(replayed.get(i).completion().text()).isEqualTo(live.get(i).completion().text());
            assertThat(replayed.get(i).completion().toolCalls()).isEqualTo(live.get(i).completion().toolCalls());
            assertThat(replayed.get(i).completion().tokensIn()).isEqualTo(live.get(i).completion().tokensIn());
        }
        assertThat(replayed.get(1).completion().toolCalls()).extracting(ToolCall::id)
                .containsExactly("call_2", "call_3");
    }

    @Test
    void theRecordingHoldsEveryFieldOfTheToolConversation() throws Exception {
        recordTheLoop();

        JsonNode file = Json.MAPPER.readTree(recordingFile().toFile());
        JsonNode entries = file.get("entries");
        assertThat(entries).hasSize(3);
        JsonNode last = null;
        for (JsonNode entry : entries) {
            if (entry.get("step").asInt() == 3) {
                last = entry;
            }
        }
        assertThat(last).as("the entry of call 3").isNotNull();
        JsonNode request = last.get("request");
        assertThat(request.get("tool_choice").asText()).isEqualTo("auto");
        assertThat(request.get("tools")).hasSize(3);
        JsonNode messages = request.get("messages");
        assertThat(messages).hasSize(7);
        assertThat(messages.get(2)).isEqualTo(Json.MAPPER.readTree("{\"role\":\"assistant\",\"content\":\"\","
                + "\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"lookup_order\",\"arguments\":{\"order\":\"A-17\"}}]}"));
        assertThat(messages.get(3)).isEqualTo(Json.MAPPER.readTree("{\"role\":\"tool\",\"content\":"
                + "\"{\\\"status\\\":\\\"delivered\\\",\\\"total\\\":12.5}\",\"tool_call_id\":\"call_1\","
                + "\"name\":\"lookup_order\"}"));
        assertThat(messages.get(6)).isEqualTo(Json.MAPPER.readTree("{\"role\":\"tool\",\"content\":"
                + "\"mail server down\",\"tool_call_id\":\"call_3\",\"name\":\"notify_customer\",\"error\":true}"));
        for (JsonNode entry : entries) {
            if (entry.get("step").asInt() == 2) {
                assertThat(entry.get("completion").get("tool_calls")).isEqualTo(Json.MAPPER.readTree(
                        "[{\"id\":\"call_2\",\"name\":\"refund\",\"arguments\":{\"amount\":12.5,\"order\":\"A-17\"}},"
                                + "{\"id\":\"call_3\",\"name\":\"notify_customer\",\"arguments\":{\"order\":\"A-17\"}}]"));
            }
        }
    }

    @Test
    void aChangedToolResultIsAMissNamingTheCaseTheCallAndWhatChanged() {
        recordTheLoop();
        RecordingModel replay = recording("replay", request -> {
            throw new AssertionError("replay called the model");
        });

        assertThatThrownBy(() -> loop(replay, new ModelCall(CASE, 0), first(), tools("lost")))
                .isInstanceOf(ModelCallException.class)
                .hasMessageStartingWith("No recording of model '" + MODEL + "' for case 'refund_request', repeat 0, "
                        + "call 2 (request digest ")
                .hasMessageContaining(": the request differs from the request recorded for call 2: message 4 "
                        + "(tool result of lookup_order): recorded '{\"status\":\"delivered\",\"total\":12.5}', "
                        + "now '{\"status\":\"lost\",\"total\":12.5}'. Record it with -Darena.cache.mode=record");
    }

    @Test
    void changedToolsAndToolChoiceAreNamed() {
        recordTheLoop();
        RecordingModel replay = recording("replay", request -> {
            throw new AssertionError("replay called the model");
        });
        ModelRequest changed = first().withTools(List.of(tool("lookup_order"), tool("refund"), tool("escalate")))
                .withToolChoice("required");

        assertThatThrownBy(() -> replay.answer(changed, new ModelCall(CASE, 0)))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("call 1 (request digest ")
                .hasMessageContaining("the request differs from the request recorded for call 1: tools offered "
                        + "differ: +escalate, -notify_customer; tool choice: recorded 'auto', now 'required'.");
    }

    @Test
    void aLongerConversationIsSetAgainstTheClosestRecordingInAFileWithoutSteps() throws Exception {
        recordTheLoop();
        // a recording made before entries said which call they answered
        Path file = recordingFile();
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(file.toFile());
        root.get("entries").forEach(entry -> ((ObjectNode) entry).remove("step"));
        Files.writeString(file, Json.MAPPER.writeValueAsString(root), StandardCharsets.UTF_8);
        RecordingModel replay = recording("replay", request -> {
            throw new AssertionError("replay called the model");
        });
        List<Message> conversation = new ArrayList<>(first().messages());
        conversation.add(Message.user("And cancel my subscription."));

        assertThatThrownBy(() -> replay.answer(first().withMessages(conversation), new ModelCall(CASE, 0)))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("the request differs from the closest recorded request: message 3 (user) "
                        + "is new: 'And cancel my subscription.'");
    }

    @Test
    void aRepeatThatWasNeverRecordedSaysWhichRepeatsAre() {
        recordTheLoop();
        RecordingModel replay = recording("replay", request -> {
            throw new AssertionError("replay called the model");
        });

        assertThatThrownBy(() -> replay.answer(first(), new ModelCall(CASE, 2)))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("repeat 2, call 1 (request digest ")
                .hasMessageContaining(": nothing is recorded for repeat 2 (the recording holds repeat 0).");
    }

    @Test
    void readWriteCallsTheModelForTheChangedStepOnlyAndRecordsIt() {
        recordTheLoop();
        List<ModelRequest> live = new ArrayList<>();
        RecordingModel readWrite = recording("read-write", request -> {
            live.add(request);
            return agent(request);
        });

        List<ModelAnswer> answers = loop(readWrite, new ModelCall(CASE, 0), first(), tools("lost"));

        assertThat(answers).extracting(ModelAnswer::replayed).containsExactly(true, false, false);
        assertThat(live).hasSize(2);
    }

    @Test
    void plainRequestsKeepTheDigestsOfOlderRecordings() {
        // digests committed in samples/**/arena-recordings before requests carried tools
        assertThat(RequestDigest.of(ModelRequest.ofPrompt("Classify: I was charged twice this month.")))
                .isEqualTo("0fb228779cfd7a64");
        assertThat(RequestDigest.of(ModelRequest.ofPrompt("Where can I see the status of my order?")))
                .isEqualTo("7640cc1afffa7470");
    }

    private Path recordingFile() {
        return root.resolve("src/test/resources/arena-recordings").resolve(RecordingCache.fileName(MODEL))
                .resolve("refund_request.json");
    }

    private static Map<String, Object> tool(String name) {
        return Map.of("type", "function", "function", Map.of("name", name, "parameters",
                Map.of("type", "object", "properties", Map.of("order", Map.of("type", "string")))));
    }

    /** {@link #agent} as a Chat Completions server answers. */
    private static LoopbackOpenAi.Reply agentOverHttp(JsonNode request) {
        int results = 0;
        for (JsonNode message : request.get("messages")) {
            results += message.path("role").asText().equals("tool") ? 1 : 0;
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        ObjectNode message = body.putArray("choices").addObject().putObject("message").put("role", "assistant");
        ArrayNode calls = Json.MAPPER.createArrayNode();
        if (results == 0) {
            message.putNull("content");
            call(calls, "call_1", "lookup_order", "{\"order\":\"A-17\"}");
        }
        else if (results == 1) {
            message.put("content", "Refunding now.");
            call(calls, "call_2", "refund", "{\"order\":\"A-17\",\"amount\":12.5}");
            call(calls, "call_3", "notify_customer", "{\"order\":\"A-17\"}");
        }
        else {
            message.put("content", "Refunded 12.50 for A-17.");
        }
        if (!calls.isEmpty()) {
            message.set("tool_calls", calls);
        }
        body.putObject("usage").put("prompt_tokens", 40 + 10 * results).put("completion_tokens", 9);
        return new LoopbackOpenAi.Reply(200, body.toString());
    }

    private static void call(ArrayNode calls, String id, String name, String arguments) {
        ObjectNode call = calls.addObject().put("id", id).put("type", "function");
        call.putObject("function").put("name", name).put("arguments", arguments);
    }
}
