package dev.agentarena.junit.engine.integration.langchain4j;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.json.ToolArguments;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;

/**
 * Translates between the engine's requests and completions and LangChain4j's chat requests and responses: text
 * messages, temperature, the output token limit, tool definitions (as OpenAI function definitions on the engine's
 * side) and tool calls. What the engine cannot carry, such as images or the results of tool calls, is refused with
 * a message that says so rather than dropped.
 */
final class LangChain4jMessages {

    private LangChain4jMessages() {
    }

    /** The engine's request as LangChain4j's, for a LangChain4j model under evaluation. */
    static ChatRequest chatRequest(ModelRequest request, String modelKey) {
        List<ChatMessage> messages = new ArrayList<>();
        for (Message message : request.messages()) {
            switch (message.role()) {
                case "system":
                    // LangChain4j refuses a blank system message; there is nothing in it to send
                    if (!message.content().isBlank()) {
                        messages.add(SystemMessage.from(message.content()));
                    }
                    break;
                case "user":
                    messages.add(UserMessage.from(message.content()));
                    break;
                case "assistant":
                    messages.add(AiMessage.from(message.content()));
                    break;
                default:
                    throw new IllegalArgumentException(modelKey + ": a LangChain4j chat model is sent system, user "
                            + "and assistant messages; this request has a '" + message.role() + "' message");
            }
        }
        ChatRequest.Builder builder = ChatRequest.builder().messages(messages);
        request.temperature().ifPresent(builder::temperature);
        request.maxTokens().ifPresent(builder::maxOutputTokens);
        if (!request.tools().isEmpty()) {
            List<ToolSpecification> tools = new ArrayList<>();
            for (Map<String, Object> definition : request.tools()) {
                tools.add(toolSpecification(definition));
            }
            builder.toolSpecifications(tools);
        }
        return builder.build();
    }

    /** A LangChain4j response as the engine's completion, without latency or cost, which the caller adds. */
    static Completion completion(ChatResponse response) {
        AiMessage message = response.aiMessage();
        String text = message == null || message.text() == null ? "" : message.text();
        List<ToolCall> calls = new ArrayList<>();
        if (message != null && message.hasToolExecutionRequests()) {
            for (ToolExecutionRequest call : message.toolExecutionRequests()) {
                calls.add(new ToolCall(call.name() == null ? "" : call.name(), ToolArguments.parse(call.arguments())));
            }
        }
        TokenUsage usage = response.tokenUsage();
        long in = usage == null || usage.inputTokenCount() == null ? 0 : usage.inputTokenCount();
        long out = usage == null || usage.outputTokenCount() == null ? 0 : usage.outputTokenCount();
        return Completion.of(text).withToolCalls(calls).withTokens(in, out);
    }

    /**
     * LangChain4j's request as the engine's, for the {@code ChatModel} the engine provides. A conversation that
     * carries tool results, images or other non-text content cannot be sent on: the engine's requests hold text.
     */
    static ModelRequest modelRequest(ChatRequest request) {
        List<Message> messages = new ArrayList<>();
        for (ChatMessage message : request.messages()) {
            if (message instanceof SystemMessage) {
                messages.add(Message.system(((SystemMessage) message).text()));
            }
            else if (message instanceof UserMessage) {
                messages.add(Message.user(text((UserMessage) message)));
            }
            else if (message instanceof AiMessage && !((AiMessage) message).hasToolExecutionRequests()) {
                String text = ((AiMessage) message).text();
                messages.add(Message.assistant(text == null ? "" : text));
            }
            else {
                throw new UnsupportedOperationException("The engine's ChatModel sends text conversations and tool "
                        + "definitions, and returns the model's text and tool calls; it cannot send on tool calls and "
                        + "their results (found a " + message.type() + " message: the second turn of a tool-calling "
                        + "AI service). Return the tool calls as the task's output for the tool-call scorers.");
            }
        }
        ModelRequest converted = ModelRequest.ofMessages(messages);
        if (request.temperature() != null) {
            converted = converted.withTemperature(request.temperature());
        }
        if (request.maxOutputTokens() != null) {
            converted = converted.withMaxTokens(request.maxOutputTokens());
        }
        if (request.toolSpecifications() != null && !request.toolSpecifications().isEmpty()) {
            List<Map<String, Object>> tools = new ArrayList<>();
            for (ToolSpecification tool : request.toolSpecifications()) {
                tools.add(toolDefinition(tool));
            }
            converted = converted.withTools(tools);
        }
        return converted;
    }

    /** The engine's completion as LangChain4j's response; its model name is the eval's model key. */
    static ChatResponse chatResponse(Completion completion, String modelKey) {
        List<ToolExecutionRequest> requests = new ArrayList<>();
        for (ToolCall call : completion.toolCalls()) {
            requests.add(ToolExecutionRequest.builder().id("call_" + (requests.size() + 1)).name(call.name())
                    .arguments(ToolArguments.write(call.arguments())).build());
        }
        AiMessage message = requests.isEmpty() ? AiMessage.from(completion.text())
                : AiMessage.builder().text(completion.text().isEmpty() ? null : completion.text())
                        .toolExecutionRequests(requests).build();
        return ChatResponse.builder().aiMessage(message).modelName(modelKey)
                .tokenUsage(new TokenUsage(Math.toIntExact(completion.tokensIn()),
                        Math.toIntExact(completion.tokensOut())))
                .finishReason(requests.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_EXECUTION).build();
    }

    private static String text(UserMessage message) {
        if (message.hasSingleText()) {
            return message.singleText();
        }
        StringBuilder text = new StringBuilder();
        for (Content content : message.contents()) {
            if (!(content instanceof TextContent)) {
                throw new UnsupportedOperationException("The engine's ChatModel sends text only; this user message "
                        + "has " + content.type() + " content");
            }
            text.append(text.length() == 0 ? "" : "\n").append(((TextContent) content).text());
        }
        return text.toString();
    }

    /** An OpenAI function definition of a LangChain4j tool: what the engine's requests and recordings carry. */
    private static Map<String, Object> toolDefinition(ToolSpecification tool) {
        Map<String, Object> function;
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> read = Json.MAPPER.readValue(tool.toJson(), LinkedHashMap.class);
            function = read;
        }
        catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot read the definition of tool " + tool.name(), e);
        }
        function.remove("metadata");
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("type", "function");
        definition.put("function", function);
        return definition;
    }

    /** A LangChain4j tool of an OpenAI function definition ({@code {"type":"function","function":{...}}}). */
    private static ToolSpecification toolSpecification(Map<String, Object> definition) {
        Object function = definition.get("function");
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = function instanceof Map ? (Map<String, Object>) function : definition;
        Map<String, Object> copy = new LinkedHashMap<>();
        for (String key : List.of("name", "description", "parameters", "strict")) {
            if (spec.get(key) != null) {
                copy.put(key, spec.get(key));
            }
        }
        return ToolSpecification.fromJson(Json.write(copy));
    }
}
