package dev.agentarena.junit.engine.models.openai;

import static dev.agentarena.junit.engine.models.openai.FakeChatServer.json;
import static dev.agentarena.junit.engine.models.openai.FakeChatServer.ok;
import static dev.agentarena.junit.engine.models.openai.FakeChatServer.withHeader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.models.AgentFailure;
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
 * A whole tool conversation over real HTTP: the loopback server plays an agent's three steps (a tool call, two tool
 * calls in one turn, a final answer), and each request it receives is compared with the exact JSON the API expects.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OpenAiToolLoopTest {

    private static final String KEY = "openai:test-model";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final List<Map<String, Object>> TOOLS = List.of(
            tool("lookup_order", Map.of("order", Map.of("type", "string"))),
            tool("refund", Map.of("order", Map.of("type", "string"), "amount", Map.of("type", "number"))));

    @TempDir
    Path root;

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    @Test
    void aThreeStepToolLoopSendsTheWholeConversationAsTheApiExpectsIt() throws Exception {
        FakeChatServer server = server(json(200, toolCalls("call_1", "lookup_order", "{\"order\":\"A-17\"}")),
                json(200, toolCalls("call_2", "refund", "{\"order\":\"A-17\",\"amount\":12.5}", "call_3",
                        "notify_customer", "{\"order\":\"A-17\"}")),
                ok("Refunded 12.50 for A-17."));
        ModelClient client = client(server.baseUrl());

        ModelRequest first = ModelRequest.ofMessages(List.of(Message.system("You are a support agent."),
                Message.user("Refund order A-17"))).withTools(TOOLS).withToolChoice("auto").withTemperature(0);
        Completion one = client.complete(first);
        ToolCall lookup = ToolCall.of("lookup_order", Map.of("order", "A-17")).withId("call_1");
        assertThat(one.toolCalls()).containsExactly(lookup);

        List<Message> conversation = new ArrayList<>(first.messages());
        conversation.add(Message.assistant("", one.toolCalls()));
        conversation.add(Message.toolResult(lookup, "{\"status\":\"delivered\",\"total\":12.5}"));
        Completion two = client.complete(first.withMessages(conversation));
        ToolCall refund = ToolCall.of("refund", Map.of("order", "A-17", "amount", 12.5)).withId("call_2");
        ToolCall notify = ToolCall.of("notify_customer", Map.of("order", "A-17")).withId("call_3");
        assertThat(two.toolCalls()).containsExactly(refund, notify);

        conversation.add(Message.assistant("Refunding now.", two.toolCalls()));
        conversation.add(Message.toolResult(refund, "{\"refunded\":true}"));
        conversation.add(Message.toolError(notify, "mail server down"));
        Completion three = client.complete(first.withMessages(conversation).withToolChoice("none"));
        assertThat(three.text()).isEqualTo("Refunded 12.50 for A-17.");
        assertThat(three.toolCalls()).isEmpty();

        String tools = JSON.writeValueAsString(TOOLS);
        String start = """
                {"model":"test-model","messages":[
                  {"role":"system","content":"You are a support agent."},
                  {"role":"user","content":"Refund order A-17"}""";
        String afterLookup = """
                  ,{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
                    "function":{"name":"lookup_order","arguments":"{\\"order\\":\\"A-17\\"}"}}]},
                  {"role":"tool","tool_call_id":"call_1","content":"{\\"status\\":\\"delivered\\",\\"total\\":12.5}"}""";
        String afterRefund = """
                  ,{"role":"assistant","content":"Refunding now.","tool_calls":[
                    {"id":"call_2","type":"function",
                     "function":{"name":"refund","arguments":"{\\"order\\":\\"A-17\\",\\"amount\\":12.5}"}},
                    {"id":"call_3","type":"function",
                     "function":{"name":"notify_customer","arguments":"{\\"order\\":\\"A-17\\"}"}}]},
                  {"role":"tool","tool_call_id":"call_2","content":"{\\"refunded\\":true}"},
                  {"role":"tool","tool_call_id":"call_3","content":"mail server down"}""";
        String end = "],\"temperature\":0.0,\"tools\":" + tools + ",\"tool_choice\":";
        assertThat(received(server, 0)).isEqualTo(JSON.readTree(start + end + "\"auto\"}"));
        assertThat(received(server, 1)).isEqualTo(JSON.readTree(start + afterLookup + end + "\"auto\"}"));
        assertThat(received(server, 2)).isEqualTo(JSON.readTree(start + afterLookup + afterRefund + end
                + "\"none\"}"));
    }

    @Test
    void aToolChoiceIsAWordOrTheOneFunctionToCall() throws Exception {
        FakeChatServer server = server(ok("fine"));
        ModelClient client = client(server.baseUrl());
        ModelRequest request = ModelRequest.ofPrompt("Refund order A-17").withTools(TOOLS);

        client.complete(request.withToolChoice("required"));
        client.complete(request.withToolChoice("refund"));
        client.complete(request);

        assertThat(received(server, 0).get("tool_choice")).isEqualTo(JSON.readTree("\"required\""));
        assertThat(received(server, 1).get("tool_choice")).isEqualTo(JSON.readTree(
                "{\"type\":\"function\",\"function\":{\"name\":\"refund\"}}"));
        assertThat(received(server, 2).has("tool_choice")).isFalse();
    }

    @Test
    void aServerErrorOrARateLimitInTheMiddleOfALoopIsRetriedWithTheSameConversation() throws Exception {
        FakeChatServer server = server(json(200, toolCalls("call_1", "lookup_order", "{\"order\":\"A-17\"}")),
                json(500, "{\"error\":{\"message\":\"upstream hiccup\"}}"),
                json(200, toolCalls("call_2", "refund", "{\"order\":\"A-17\",\"amount\":12.5}")),
                withHeader("Retry-After", "0", json(429, "{\"error\":{\"message\":\"slow down\"}}")),
                ok("Refunded."));
        ModelClient client = client(server.baseUrl());

        ModelRequest request = ModelRequest.ofPrompt("Refund order A-17").withTools(TOOLS);
        List<Message> conversation = new ArrayList<>(request.messages());
        for (int step = 0; step < 3; step++) {
            Completion answer = client.complete(request.withMessages(conversation));
            if (answer.toolCalls().isEmpty()) {
                assertThat(answer.text()).isEqualTo("Refunded.");
                break;
            }
            conversation.add(Message.assistant(answer.text(), answer.toolCalls()));
            for (ToolCall call : answer.toolCalls()) {
                conversation.add(Message.toolResult(call, "ok"));
            }
        }

        assertThat(server.requests()).isEqualTo(5);
        // each retry sends again, byte for byte, the conversation the failed attempt sent
        assertThat(server.bodies.get(2)).isEqualTo(server.bodies.get(1));
        assertThat(server.bodies.get(4)).isEqualTo(server.bodies.get(3));
        assertThat(received(server, 4).get("messages")).hasSize(5);
        assertThat(received(server, 4).get("messages").get(4).get("tool_call_id").asText()).isEqualTo("call_2");
    }

    @Test
    void argumentsThatAreNotJsonAreKeptRawAndGivenBackToTheModelAsItSentThem() throws Exception {
        FakeChatServer server = server(json(200, toolCalls("call_9", "lookup_order", "{order: A-17")),
                ok("Sorry."));
        ModelClient client = client(server.baseUrl());
        ModelRequest request = ModelRequest.ofPrompt("Where is A-17?").withTools(TOOLS);

        Completion answer = client.complete(request);
        ToolCall call = answer.toolCalls().get(0);
        assertThat(call).isEqualTo(new ToolCall("lookup_order", Map.of("_raw", "{order: A-17"), "call_9"));
        client.complete(request.withMessages(List.of(request.messages().get(0),
                Message.assistant("", answer.toolCalls()), Message.toolError(call, "arguments are not JSON"))));

        JsonNode sent = received(server, 1).get("messages").get(1).get("tool_calls").get(0);
        assertThat(sent.get("function").get("arguments").asText()).isEqualTo("{order: A-17");
    }

    @Test
    void aToolCallNamingNoFunctionIsTheModelsFailureNamingTheCallAndIsNotRetried() throws Exception {
        String body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                + "{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"lookup_order\",\"arguments\":\"{}\"}},"
                + "{\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"arguments\":\"{\\\"x\\\":1}\"}}]}}]}";
        FakeChatServer server = server(json(200, body));

        assertThatThrownBy(() -> client(server.baseUrl()).complete(ModelRequest.ofPrompt("hi")))
                .isInstanceOfSatisfying(AgentFailure.class,
                        failure -> assertThat(failure.kind()).isEqualTo(AgentFailure.Kind.TOOL_CALL))
                .hasMessageStartingWith(KEY + ": ")
                .hasMessageContaining("tool call 2 of the answer (id call_2) names no function: ")
                .hasMessageContaining("{\\\"x\\\":1}");
        assertThat(server.requests()).isEqualTo(1);
    }

    @Test
    void toolCallsThatAreNotAListAreAnError() throws Exception {
        String body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"tool_calls\":{\"name\":\"refund\"}}}]}";
        FakeChatServer server = server(json(200, body));

        assertThatThrownBy(() -> client(server.baseUrl()).complete(ModelRequest.ofPrompt("hi")))
                .isInstanceOf(ModelCallException.class).hasMessageStartingWith(KEY + ": ")
                .hasMessageContaining("the answer's tool_calls is not a list: {\"name\":\"refund\"}");
        assertThat(server.requests()).isEqualTo(1);
    }

    private FakeChatServer server(FakeChatServer.Behaviour... script) throws Exception {
        FakeChatServer server = new FakeChatServer(List.of(script));
        closeables.add(server);
        return server;
    }

    private ModelClient client(String baseUrl) {
        Map<String, String> values = new HashMap<>();
        values.put("arena.models." + KEY + ".base-url", baseUrl);
        values.put("arena.models." + KEY + ".retry.initial-backoff-ms", "1");
        values.put("arena.models." + KEY + ".retry.max-backoff-ms", "20");
        ModelRegistry registry = TestConfigurations.registry(root, values, Map.of());
        closeables.add(registry);
        ModelEndpoint endpoint = registry.endpoint(KEY);
        return request -> endpoint.answer(request, ModelCall.NONE).completion();
    }

    private static JsonNode received(FakeChatServer server, int index) throws Exception {
        return JSON.readTree(server.bodies.get(index));
    }

    private static Map<String, Object> tool(String name, Map<String, Object> properties) {
        return Map.of("type", "function", "function", Map.of("name", name, "parameters",
                Map.of("type", "object", "properties", properties)));
    }

    /** An answer asking for these calls: id, name and arguments (a JSON string) for each. */
    static String toolCalls(String... idNameArguments) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "tool_calls");
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant").putNull("content");
        ArrayNode calls = message.putArray("tool_calls");
        for (int i = 0; i < idNameArguments.length; i += 3) {
            ObjectNode call = calls.addObject().put("id", idNameArguments[i]).put("type", "function");
            call.putObject("function").put("name", idNameArguments[i + 1]).put("arguments", idNameArguments[i + 2]);
        }
        body.putObject("usage").put("prompt_tokens", 30).put("completion_tokens", 8);
        return body.toString();
    }
}
