package dev.agentarena.junit.engine.models.openai;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.json.ToolArguments;
import dev.agentarena.junit.engine.models.AgentFailure;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * The Chat Completions wire format: the request body (a whole tool conversation: {@code tools}, {@code tool_choice},
 * assistant turns with {@code tool_calls}, {@code tool} messages), and the answer read back from a response body.
 */
final class ChatCompletions {

    /**
     * The parts of a response the engine keeps; {@code cachedTokensIn} are the prompt tokens the provider served from
     * its prompt cache (a part of {@code tokensIn}).
     */
    record Answer(String text, List<ToolCall> toolCalls, long tokensIn, long tokensOut, long cachedTokensIn) {
    }

    /**
     * A 2xx response that holds no usable answer. {@code retryable} when the body is not JSON at all, which is what
     * a cut connection or a misbehaving proxy produces; a well-formed body without {@code choices} is the server's
     * considered answer and is not retried.
     */
    static final class MalformedResponse extends Exception {

        private static final long serialVersionUID = 1L;

        final boolean retryable;
        /** Whether the model itself wrote the malformed part (a tool call naming no function): its failure, scored. */
        final boolean models;

        MalformedResponse(String message, boolean retryable) {
            this(message, retryable, false);
        }

        private MalformedResponse(String message, boolean retryable, boolean models) {
            super(message);
            this.retryable = retryable;
            this.models = models;
        }

        /** The failure of the case: the model's own ({@link AgentFailure}) or the provider's. */
        RuntimeException failure(String message, Supplier<ModelCallException> providers) {
            return models ? new AgentFailure(AgentFailure.Kind.TOOL_CALL, message) : providers.get();
        }
    }

    private ChatCompletions() {
    }

    static byte[] requestBody(ModelRequest request, OpenAiSettings settings) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", settings.model);
        ArrayNode messages = body.putArray("messages");
        for (Message message : request.messages()) {
            messages.add(message(message));
        }
        Double temperature = request.temperature().orElse(settings.temperature);
        if (temperature != null) {
            body.put("temperature", temperature);
        }
        Integer maxTokens = request.maxTokens().orElse(settings.maxTokens);
        if (maxTokens != null) {
            body.put(settings.maxTokensParameter, maxTokens);
        }
        Long seed = request.seed().orElse(settings.seed);
        if (seed != null) {
            body.put("seed", seed);
        }
        if (!request.tools().isEmpty()) {
            body.set("tools", Json.MAPPER.valueToTree(request.tools()));
        }
        request.toolChoice().ifPresent(choice -> body.set("tool_choice", toolChoice(choice)));
        try {
            return Json.MAPPER.writeValueAsBytes(body);
        }
        catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot render the request as JSON", e);
        }
    }

    /**
     * One message as the API takes it: an assistant turn that asks for tools carries them as {@code tool_calls}
     * (arguments as a JSON string, given back as the model sent them when they were not JSON), a tool result answers
     * its call's id. A call or result without an id (written by hand) goes out without one.
     */
    private static ObjectNode message(Message message) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("role", message.role());
        if (message.isToolResult() && !message.toolCallId().isEmpty()) {
            node.put("tool_call_id", message.toolCallId());
        }
        if (message.hasToolCalls() && message.content().isEmpty()) {
            node.putNull("content");
        }
        else {
            node.put("content", message.content());
        }
        if (message.hasToolCalls()) {
            ArrayNode calls = node.putArray("tool_calls");
            for (ToolCall call : message.toolCalls()) {
                ObjectNode entry = calls.addObject();
                if (call.hasId()) {
                    entry.put("id", call.id());
                }
                entry.put("type", "function");
                entry.putObject("function").put("name", call.name())
                        .put("arguments", ToolArguments.write(call.arguments()));
            }
        }
        return node;
    }

    /** {@code auto}, {@code none} and {@code required} as they are; a tool's name as the one function to call. */
    private static JsonNode toolChoice(String choice) {
        return switch (choice) {
            case "auto", "none", "required" -> Json.MAPPER.getNodeFactory().textNode(choice);
            default -> {
                ObjectNode named = Json.MAPPER.createObjectNode().put("type", "function");
                named.putObject("function").put("name", choice);
                yield named;
            }
        };
    }

    static Answer parse(String body) throws MalformedResponse {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        }
        catch (JsonProcessingException e) {
            throw new MalformedResponse("the response body is not valid JSON (truncated or not JSON): "
                    + e.getOriginalMessage(), true);
        }
        if (root == null || root.isMissingNode()) {
            throw new MalformedResponse("the response body is empty", true);
        }
        JsonNode choices = root.path("choices");
        if (!choices.isArray() || choices.isEmpty()) {
            JsonNode error = root.path("error");
            String detail = error.isMissingNode() ? "" : ": " + error.path("message").asText(error.toString());
            throw new MalformedResponse("the response has no choices" + detail, false);
        }
        JsonNode message = choices.get(0).path("message");
        if (!message.isObject()) {
            throw new MalformedResponse("the first choice has no message", false);
        }
        JsonNode content = message.path("content");
        String text = content.isTextual() ? content.asText() : content.isNull() || content.isMissingNode() ? ""
                : content.toString();
        List<ToolCall> calls = toolCalls(message.path("tool_calls"));
        JsonNode usage = root.path("usage");
        return new Answer(text, calls, usage.path("prompt_tokens").asLong(0), usage.path("completion_tokens").asLong(0),
                cachedTokens(usage));
    }

    /**
     * OpenAI's {@code prompt_tokens_details.cached_tokens}, or, from servers that pass Anthropic's usage through,
     * {@code cache_read_input_tokens}; 0 when neither is there.
     */
    static long cachedTokens(JsonNode usage) {
        JsonNode openAi = usage.path("prompt_tokens_details").path("cached_tokens");
        if (openAi.canConvertToLong()) {
            return Math.max(0, openAi.asLong());
        }
        JsonNode anthropic = usage.path("cache_read_input_tokens");
        return anthropic.canConvertToLong() ? Math.max(0, anthropic.asLong()) : 0;
    }

    /**
     * The calls an answer asks for, with the ids their results must answer. A call without a function name cannot be
     * answered by anyone: the answer is malformed (not retried: the server meant it), named by the call's position
     * and id and what was sent.
     */
    private static List<ToolCall> toolCalls(JsonNode toolCalls) throws MalformedResponse {
        if (toolCalls.isMissingNode() || toolCalls.isNull()) {
            return List.of();
        }
        if (!toolCalls.isArray()) {
            throw new MalformedResponse("the answer's tool_calls is not a list: " + abbreviate(toolCalls), false);
        }
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode call : toolCalls) {
            String id = call.path("id").isTextual() ? call.path("id").asText() : "";
            JsonNode name = call.path("function").path("name");
            if (!name.isTextual() || name.asText().isBlank()) {
                throw new MalformedResponse("tool call " + (calls.size() + 1) + " of the answer"
                        + (id.isEmpty() ? "" : " (id " + id + ")") + " names no function: " + abbreviate(call), false,
                        true);
            }
            calls.add(new ToolCall(name.asText(), arguments(call.path("function").path("arguments")), id));
        }
        return calls;
    }

    /**
     * Arguments arrive as a JSON string (some servers send the object itself). Invalid JSON is the model's mistake,
     * not the transport's: it is kept under {@code _raw} ({@link ToolArguments}), so a scorer sees a wrong call rather
     * than the case erroring, and the next request gives it back to the model as it was sent.
     */
    private static Map<String, Object> arguments(JsonNode arguments) {
        if (arguments.isTextual()) {
            return ToolArguments.parse(arguments.asText());
        }
        if (arguments.isObject()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> map = Json.MAPPER.convertValue(arguments, LinkedHashMap.class);
            return map;
        }
        return arguments.isMissingNode() || arguments.isNull() ? Map.of() : Map.of(ToolArguments.RAW,
                arguments.toString());
    }

    private static String abbreviate(JsonNode node) {
        String text = node.toString();
        return text.length() <= 200 ? text : text.substring(0, 199) + "…";
    }
}
