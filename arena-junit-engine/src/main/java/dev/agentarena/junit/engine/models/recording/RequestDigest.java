package dev.agentarena.junit.engine.models.recording;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * A stable key for what was asked: SHA-256 over canonical JSON (sorted keys) of the messages (with their tool calls
 * and tool results), the sampling parameters, the tools offered and the tool choice. The case and repeat are kept
 * out: they key the file and the entry, not the question. A field is described only when it is set, so a plain text
 * request has the digest it had before requests carried tools: older recordings still match.
 */
final class RequestDigest {

    private RequestDigest() {
    }

    /** The request as a JSON-like value, in a fixed key order; also what a recording shows of the request. */
    static Map<String, Object> describe(ModelRequest request) {
        Map<String, Object> description = new LinkedHashMap<>();
        List<Map<String, Object>> messages = new ArrayList<>();
        for (Message message : request.messages()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("role", message.role());
            entry.put("content", message.content());
            if (message.hasToolCalls()) {
                List<Map<String, Object>> calls = new ArrayList<>();
                for (ToolCall call : message.toolCalls()) {
                    calls.add(call(call));
                }
                entry.put("tool_calls", calls);
            }
            if (!message.toolCallId().isEmpty()) {
                entry.put("tool_call_id", message.toolCallId());
            }
            if (!message.toolName().isEmpty()) {
                entry.put("name", message.toolName());
            }
            if (message.error()) {
                entry.put("error", true);
            }
            messages.add(entry);
        }
        description.put("messages", messages);
        request.temperature().ifPresent(value -> description.put("temperature", value));
        request.maxTokens().ifPresent(value -> description.put("max_tokens", value));
        request.seed().ifPresent(value -> description.put("seed", value));
        if (!request.tools().isEmpty()) {
            description.put("tools", canonical(byName(request.tools())));
        }
        request.toolChoice().ifPresent(choice -> description.put("tool_choice", choice));
        return description;
    }

    /** A tool call as recordings show it: its id when it has one, its name, its arguments with sorted keys. */
    static Map<String, Object> call(ToolCall call) {
        Map<String, Object> entry = new LinkedHashMap<>();
        if (call.hasId()) {
            entry.put("id", call.id());
        }
        entry.put("name", call.name());
        entry.put("arguments", canonical(call.arguments()));
        return entry;
    }

    /**
     * The tools sorted by name: LangChain4j and Spring AI list an app's {@code @Tool} methods in reflection order,
     * which may change from one JVM to the next, and a recording must match the request whatever that order.
     */
    private static List<Map<String, Object>> byName(List<Map<String, Object>> tools) {
        return tools.stream().sorted(Comparator.comparing(RequestDigest::toolName)).toList();
    }

    /** A tool definition's name, OpenAI style ({@code {"type":"function","function":{"name":...}}}) or flat. */
    private static String toolName(Map<String, Object> tool) {
        Object function = tool.get("function") instanceof Map<?, ?> nested ? nested : tool;
        return String.valueOf(((Map<?, ?>) function).get("name"));
    }

    static String of(ModelRequest request) {
        return ofValue(describe(request));
    }

    /** The digest of any JSON-like value (a tool call as {@code RecordedTools} describes it), keys sorted. */
    static String ofValue(Object description) {
        byte[] canonical = Json.write(canonical(description)).getBytes(StandardCharsets.UTF_8);
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical);
            StringBuilder hex = new StringBuilder();
            // 64 bits tell apart every request a project makes, and keep the files readable
            for (int i = 0; i < 8; i++) {
                hex.append(String.format("%02x", hash[i]));
            }
            return hex.toString();
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** Maps with sorted keys, all the way down. */
    static Object canonical(Object value) {
        if (value instanceof Map) {
            Map<String, Object> sorted = new TreeMap<>();
            ((Map<?, ?>) value).forEach((k, v) -> sorted.put(String.valueOf(k), canonical(v)));
            return sorted;
        }
        if (value instanceof List) {
            List<Object> items = new ArrayList<>();
            ((List<?>) value).forEach(item -> items.add(canonical(item)));
            return items;
        }
        return value;
    }
}
