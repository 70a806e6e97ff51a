package dev.agentarena.junit.engine.models.openai;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;

/** The Chat Completions wire format: the request body, and the answer read back from a response body. */
final class ChatCompletions {

    /** The parts of a response the engine keeps. */
    record Answer(String text, List<ToolCall> toolCalls, long tokensIn, long tokensOut) {
    }

    /**
     * A 2xx response that holds no usable answer. {@code retryable} when the body is not JSON at all, which is what
     * a cut connection or a misbehaving proxy produces; a well-formed body without {@code choices} is the server's
     * considered answer and is not retried.
     */
    static final class MalformedResponse extends Exception {

        private static final long serialVersionUID = 1L;

        final boolean retryable;

        MalformedResponse(String message, boolean retryable) {
            super(message);
            this.retryable = retryable;
        }
    }

    private ChatCompletions() {
    }

    static byte[] requestBody(ModelRequest request, OpenAiSettings settings) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", settings.model);
        ArrayNode messages = body.putArray("messages");
        for (Message message : request.messages()) {
            messages.addObject().put("role", message.role()).put("content", message.content());
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
        try {
            return Json.MAPPER.writeValueAsBytes(body);
        }
        catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot render the request as JSON", e);
        }
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
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode call : message.path("tool_calls")) {
            JsonNode function = call.path("function");
            calls.add(new ToolCall(function.path("name").asText(""), arguments(function.path("arguments"))));
        }
        JsonNode usage = root.path("usage");
        return new Answer(text, calls, usage.path("prompt_tokens").asLong(0), usage.path("completion_tokens").asLong(0));
    }

    /**
     * Arguments arrive as a JSON string. Invalid JSON is the model's mistake, not the transport's: it is kept under
     * {@code _raw} so a scorer sees a wrong call rather than the case erroring.
     */
    private static Map<String, Object> arguments(JsonNode arguments) {
        JsonNode parsed = arguments;
        if (arguments.isTextual()) {
            String raw = arguments.asText();
            if (raw.isBlank()) {
                return Map.of();
            }
            try {
                parsed = Json.MAPPER.readTree(raw);
            }
            catch (JsonProcessingException e) {
                return Map.of("_raw", raw);
            }
        }
        if (parsed == null || parsed.isMissingNode() || parsed.isNull()) {
            return Map.of();
        }
        if (!parsed.isObject()) {
            return Map.of("_raw", arguments.isTextual() ? arguments.asText() : parsed.toString());
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = Json.MAPPER.convertValue(parsed, LinkedHashMap.class);
        return map;
    }
}
