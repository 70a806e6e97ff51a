package dev.agentarena.junit.engine.integration.langchain4j;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.json.ToolArguments;
import dev.agentarena.junit.engine.models.CachedTokens;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;

/**
 * Translates between the engine's requests and completions and LangChain4j's chat requests and responses: system,
 * user and assistant messages, an assistant's tool calls ({@code AiMessage} tool execution requests) and the tools'
 * results ({@code ToolExecutionResultMessage}, its error flag included), temperature, the output token limit, tool
 * definitions (as OpenAI function definitions on the engine's side) and the tool choice. So a tool-calling AI service
 * runs its whole loop through the engine. What the engine cannot carry, such as images, is refused with a message that
 * says so rather than dropped.
 */
final class LangChain4jMessages {

    private LangChain4jMessages() {
    }

    /** The engine's request as LangChain4j's, for a LangChain4j model under evaluation. */
    static ChatRequest chatRequest(ModelRequest request, String modelKey) {
        List<ChatMessage> messages = new ArrayList<>();
        for (Message message : request.messages()) {
            switch (message.role()) {
                // LangChain4j refuses a blank system message; there is nothing in it to send
                case "system" -> {
                    if (!message.content().isBlank()) {
                        messages.add(SystemMessage.from(message.content()));
                    }
                }
                case "user" -> messages.add(UserMessage.from(message.content()));
                case "assistant" -> messages.add(aiMessage(message));
                case Message.TOOL -> messages.add(ToolExecutionResultMessage.builder().id(message.toolCallId())
                        .toolName(message.toolName()).text(message.content())
                        .isError(message.error() ? Boolean.TRUE : null).build());
                default -> throw new IllegalArgumentException(modelKey + ": a LangChain4j chat model is sent system, "
                        + "user, assistant and tool messages; this request has a '" + message.role() + "' message");
            }
        }
        ChatRequest.Builder builder = ChatRequest.builder().messages(messages);
        request.temperature().ifPresent(builder::temperature);
        request.maxTokens().ifPresent(builder::maxOutputTokens);
        List<ToolSpecification> tools = new ArrayList<>();
        for (Map<String, Object> definition : request.tools()) {
            tools.add(toolSpecification(definition));
        }
        if (request.toolChoice().isEmpty()) {
            if (!tools.isEmpty()) {
                builder.toolSpecifications(tools);
            }
            return builder.build();
        }
        String choice = request.toolChoice().get();
        switch (choice) {
            case "auto", "none" -> {
                if (!tools.isEmpty()) {
                    builder.toolSpecifications(tools).toolChoice(choice.equals("auto") ? ToolChoice.AUTO
                            : ToolChoice.NONE);
                }
            }
            case "required" -> builder.toolSpecifications(requireTools(tools, modelKey, choice))
                    .toolChoice(ToolChoice.REQUIRED);
            // LangChain4j names no single tool: the one tool it may call is the one it is offered
            default -> builder.toolSpecifications(List.of(named(requireTools(tools, modelKey, choice), choice,
                    modelKey))).toolChoice(ToolChoice.REQUIRED);
        }
        return builder.build();
    }

    private static AiMessage aiMessage(Message message) {
        if (!message.hasToolCalls()) {
            return AiMessage.from(message.content());
        }
        List<ToolExecutionRequest> requests = new ArrayList<>();
        for (ToolCall call : message.toolCalls()) {
            requests.add(ToolExecutionRequest.builder().id(call.hasId() ? call.id() : null).name(call.name())
                    .arguments(ToolArguments.write(call.arguments())).build());
        }
        return AiMessage.builder().text(message.content().isEmpty() ? null : message.content())
                .toolExecutionRequests(requests).build();
    }

    private static List<ToolSpecification> requireTools(List<ToolSpecification> tools, String modelKey,
            String choice) {
        if (tools.isEmpty()) {
            throw new IllegalArgumentException(modelKey + ": the request's tool choice is '" + choice + "' but it "
                    + "offers no tool");
        }
        return tools;
    }

    private static ToolSpecification named(List<ToolSpecification> tools, String name, String modelKey) {
        for (ToolSpecification tool : tools) {
            if (tool.name().equals(name)) {
                return tool;
            }
        }
        throw new IllegalArgumentException(modelKey + ": the request's tool choice is '" + name + "', which is neither "
                + "auto, none, required nor one of the tools it offers " + tools.stream().map(ToolSpecification::name)
                .toList());
    }

    /** A LangChain4j response as the engine's completion, without latency or cost, which the caller adds. */
    static Completion completion(ChatResponse response) {
        AiMessage message = response.aiMessage();
        String text = message == null || message.text() == null ? "" : message.text();
        List<ToolCall> calls = message == null ? List.of() : toolCalls(message);
        TokenUsage usage = response.tokenUsage();
        long in = usage == null || usage.inputTokenCount() == null ? 0 : usage.inputTokenCount();
        long out = usage == null || usage.outputTokenCount() == null ? 0 : usage.outputTokenCount();
        return Completion.of(text).withToolCalls(calls).withTokens(in, out)
                .withCachedTokensIn(CachedTokens.of(usage));
    }

    /** The tool calls of an AI message, with the ids the model gave them. */
    private static List<ToolCall> toolCalls(AiMessage message) {
        List<ToolCall> calls = new ArrayList<>();
        if (message.hasToolExecutionRequests()) {
            for (ToolExecutionRequest call : message.toolExecutionRequests()) {
                calls.add(new ToolCall(call.name() == null ? "" : call.name(), ToolArguments.parse(call.arguments()),
                        call.id()));
            }
        }
        return calls;
    }

    /**
     * LangChain4j's request as the engine's, for the {@code ChatModel} the engine provides: the whole conversation of
     * an AI service, its earlier tool calls and their results included. Images and other non-text content cannot be
     * sent on: the engine's requests hold text.
     */
    static ModelRequest modelRequest(ChatRequest request) {
        List<Message> messages = new ArrayList<>();
        for (ChatMessage message : request.messages()) {
            if (message instanceof SystemMessage system) {
                messages.add(Message.system(system.text()));
            }
            else if (message instanceof UserMessage user) {
                messages.add(Message.user(text(user)));
            }
            else if (message instanceof AiMessage ai) {
                messages.add(Message.assistant(ai.text() == null ? "" : ai.text(), toolCalls(ai)));
            }
            else if (message instanceof ToolExecutionResultMessage result) {
                ToolCall call = new ToolCall(result.toolName() == null ? "" : result.toolName(), Map.of(),
                        result.id());
                String text = result.text() == null ? "" : result.text();
                messages.add(Boolean.TRUE.equals(result.isError()) ? Message.toolError(call, text)
                        : Message.toolResult(call, text));
            }
            else {
                throw new UnsupportedOperationException("The engine's ChatModel sends system, user, assistant and "
                        + "tool result messages; this request has a " + message.type() + " message ("
                        + message.getClass().getName() + ")");
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
        if (request.toolChoice() != null) {
            converted = converted.withToolChoice(request.toolChoice().name().toLowerCase(Locale.ROOT));
        }
        return converted;
    }

    /**
     * The engine's completion as LangChain4j's response; its model name is the eval's model key. A tool call keeps the
     * id the model gave it; one without gets {@code call_<n>}, numbered on from the calls earlier in the conversation,
     * so that every id of the conversation is different and each result answers one call.
     *
     * @param earlierCalls how many tool calls the conversation sent with the request already holds
     */
    static ChatResponse chatResponse(Completion completion, String modelKey, int earlierCalls) {
        List<ToolExecutionRequest> requests = new ArrayList<>();
        for (ToolCall call : completion.toolCalls()) {
            String id = call.hasId() ? call.id() : "call_" + (earlierCalls + requests.size() + 1);
            requests.add(ToolExecutionRequest.builder().id(id).name(call.name())
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

    /** How many tool calls the assistant turns of a request asked for. */
    static int toolCallsIn(ModelRequest request) {
        int calls = 0;
        for (Message message : request.messages()) {
            calls += message.toolCalls().size();
        }
        return calls;
    }

    private static String text(UserMessage message) {
        if (message.hasSingleText()) {
            return message.singleText();
        }
        StringBuilder text = new StringBuilder();
        for (Content content : message.contents()) {
            if (!(content instanceof TextContent part)) {
                throw new UnsupportedOperationException("The engine's ChatModel sends text only; this user message "
                        + "has " + content.type() + " content");
            }
            text.append(text.length() == 0 ? "" : "\n").append(part.text());
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
