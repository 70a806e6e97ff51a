package dev.agentarena.junit.model;

import java.util.List;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * One message of a conversation: a system, user or assistant turn, an assistant turn that asks for tool calls, or the
 * result of one tool call. The four shapes the OpenAI chat API, LangChain4j and Spring AI all carry, so one
 * conversation passes through every model path unchanged.
 *
 * <pre>{@code
 * List<Message> conversation = List.of(
 *         Message.user("Where is order 42?"),
 *         Message.assistant("", List.of(lookup)),            // lookup: ToolCall "lookup_order" {"id":42}, id "call_1"
 *         Message.toolResult(lookup, "{\"status\":\"shipped\"}"));
 * }</pre>
 *
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param content the text; for a tool result, what the tool returned (or its error message)
 * @param toolCalls the calls an assistant turn asks for, in order; empty for every other turn
 * @param toolCallId for a tool result, the id of the call it answers; empty otherwise
 * @param toolName for a tool result, the tool's name; empty otherwise
 * @param error for a tool result, whether the tool failed (then {@code content} is its error message)
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record Message(String role, String content, List<ToolCall> toolCalls, String toolCallId, String toolName,
        boolean error) {

    /** The role of a tool result. */
    public static final String TOOL = "tool";

    /** Validates the fields and freezes the calls. */
    public Message {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        toolCallId = toolCallId == null ? "" : toolCallId;
        toolName = toolName == null ? "" : toolName;
        if (!toolCalls.isEmpty() && !role.equals("assistant")) {
            throw new IllegalArgumentException("only an assistant message asks for tool calls; this one is a '" + role
                    + "' message");
        }
    }

    /** A text message in this role. */
    public Message(String role, String content) {
        this(role, content, List.of(), "", "", false);
    }

    /** A system message. */
    public static Message system(String content) {
        return new Message("system", content);
    }

    /** A user message. */
    public static Message user(String content) {
        return new Message("user", content);
    }

    /** An assistant message. */
    public static Message assistant(String content) {
        return new Message("assistant", content);
    }

    /** An assistant message that asks for these tool calls, with its text (often empty). */
    public static Message assistant(String content, List<ToolCall> calls) {
        return new Message("assistant", content, calls, "", "", false);
    }

    /** The result of a tool call, answering the call's id. */
    public static Message toolResult(ToolCall call, String result) {
        return new Message(TOOL, result, List.of(), call.id(), call.name(), false);
    }

    /** The error of a tool call that failed: the model reads the message and may try again. */
    public static Message toolError(ToolCall call, String errorMessage) {
        return new Message(TOOL, errorMessage, List.of(), call.id(), call.name(), true);
    }

    /** Whether this is an assistant turn asking for tool calls. */
    public boolean hasToolCalls() {
        return !toolCalls.isEmpty();
    }

    /** Whether this is the result of a tool call. */
    public boolean isToolResult() {
        return role.equals(TOOL);
    }
}
