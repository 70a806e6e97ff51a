package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.json.ToolArguments;
import dev.agentarena.junit.engine.models.CachedTokens;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * Translates between the engine's requests and completions and Spring AI's prompts and chat responses: system, user
 * and assistant messages, an assistant's tool calls ({@code AssistantMessage.ToolCall}, ids kept) and the tools'
 * results ({@code ToolResponseMessage}), temperature, the output token limit and tool definitions (as OpenAI function
 * definitions on the engine's side). So a {@code ChatClient} with tools runs its whole loop through the engine. What
 * the engine cannot carry, such as media, is refused with a message that says so rather than dropped.
 */
final class SpringAiMessages {

    private SpringAiMessages() {
    }

    /**
     * The engine's request as a Spring AI prompt, for a Spring AI model under evaluation. A request that offers tools
     * is sent with them and, on 1.x, with internal tool execution disabled (2.x models never run tools): the model
     * answers with its tool calls, and whoever called the engine runs the tools and sends their results in the next
     * request. Spring AI has no portable tool
     * choice: {@code none} offers no tool, a tool's name offers only that tool, {@code auto} and {@code required}
     * offer them all.
     */
    static Prompt prompt(ModelRequest request, String modelKey) {
        List<org.springframework.ai.chat.messages.Message> messages = new ArrayList<>();
        List<ToolResponseMessage.ToolResponse> results = new ArrayList<>();
        for (Message message : request.messages()) {
            if (!message.isToolResult() && !results.isEmpty()) {
                messages.add(ToolResponseMessage.builder().responses(List.copyOf(results)).build());
                results.clear();
            }
            switch (message.role()) {
                case "system" -> messages.add(new SystemMessage(message.content()));
                case "user" -> messages.add(new UserMessage(message.content()));
                case "assistant" -> messages.add(assistantMessage(message));
                // the results of one assistant turn's calls travel together, as Spring AI's tool calling sends them
                case Message.TOOL -> results.add(new ToolResponseMessage.ToolResponse(message.toolCallId(),
                        message.toolName(), message.content()));
                default -> throw new IllegalArgumentException(modelKey + ": a Spring AI chat model is sent system, "
                        + "user, assistant and tool messages; this request has a '" + message.role() + "' message");
            }
        }
        if (!results.isEmpty()) {
            messages.add(ToolResponseMessage.builder().responses(List.copyOf(results)).build());
        }
        List<ToolCallback> tools = offered(request, modelKey);
        if (!tools.isEmpty()) {
            ToolCallingChatOptions.Builder options = ToolCallingChatOptions.builder().toolCallbacks(tools)
                    .temperature(request.temperature().orElse(null)).maxTokens(request.maxTokens().orElse(null));
            // 2.x chat models never run tools; its ChatClient does, unless told not to (SpringAiModelClient)
            return new Prompt(messages, (SpringAiIntegration.modelsRunTools()
                    ? ModelToolLoop.withoutInternalExecution(options) : options).build());
        }
        if (request.temperature().isEmpty() && request.maxTokens().isEmpty()) {
            return new Prompt(messages);
        }
        ChatOptions options = ChatOptions.builder().temperature(request.temperature().orElse(null))
                .maxTokens(request.maxTokens().orElse(null)).build();
        return new Prompt(messages, options);
    }

    private static AssistantMessage assistantMessage(Message message) {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        for (ToolCall call : message.toolCalls()) {
            calls.add(new AssistantMessage.ToolCall(call.id(), "function", call.name(),
                    ToolArguments.write(call.arguments())));
        }
        return AssistantMessage.builder().content(message.content()).toolCalls(calls).build();
    }

    /** The request's tools as callbacks that only describe them, per its tool choice. */
    private static List<ToolCallback> offered(ModelRequest request, String modelKey) {
        String choice = request.toolChoice().orElse("auto");
        if (choice.equals("none")) {
            return List.of();
        }
        List<ToolCallback> tools = new ArrayList<>();
        for (Map<String, Object> definition : request.tools()) {
            ToolCallback tool = DescribedTool.of(definition, modelKey);
            if (choice.equals("auto") || choice.equals("required") || tool.getToolDefinition().name().equals(choice)) {
                tools.add(tool);
            }
        }
        if (!request.tools().isEmpty() && tools.isEmpty()) {
            throw new IllegalArgumentException(modelKey + ": the request's tool choice is '" + choice + "', which is "
                    + "neither auto, none, required nor one of the tools it offers");
        }
        return tools;
    }

    /** A Spring AI response as the engine's completion, without latency or cost, which the caller adds. */
    static Completion completion(ChatResponse response) {
        String text = "";
        List<ToolCall> calls = new ArrayList<>();
        if (response.getResult() != null && response.getResult().getOutput() != null) {
            AssistantMessage output = response.getResult().getOutput();
            text = output.getText() == null ? "" : output.getText();
            calls.addAll(toolCalls(output));
        }
        Usage usage = response.getMetadata() == null ? null : response.getMetadata().getUsage();
        long in = usage == null || usage.getPromptTokens() == null ? 0 : usage.getPromptTokens();
        long out = usage == null || usage.getCompletionTokens() == null ? 0 : usage.getCompletionTokens();
        return Completion.of(text).withToolCalls(calls).withTokens(in, out)
                .withCachedTokensIn(usage == null ? 0 : CachedTokens.of(usage.getNativeUsage()));
    }

    private static List<ToolCall> toolCalls(AssistantMessage message) {
        List<ToolCall> calls = new ArrayList<>();
        if (message.hasToolCalls()) {
            for (AssistantMessage.ToolCall call : message.getToolCalls()) {
                calls.add(new ToolCall(call.name() == null ? "" : call.name(), ToolArguments.parse(call.arguments()),
                        call.id()));
            }
        }
        return calls;
    }

    /** The model name a response reports, if any. */
    static String reportedModel(ChatResponse response) {
        return response.getMetadata() == null ? null : response.getMetadata().getModel();
    }

    /**
     * What tells a tool's result from the others of a conversation: its call's id, its tool and its text (a hash),
     * since ids alone may repeat.
     */
    static String resultKey(ToolResponseMessage.ToolResponse result) {
        String data = result.responseData() == null ? "" : result.responseData();
        return result.id() + "\u0000" + result.name() + "\u0000" + data.length() + ":" + data.hashCode();
    }

    /**
     * A Spring AI prompt as the engine's request, for the {@code ChatModel} the engine provides: the whole
     * conversation, earlier tool calls and their results included. Media cannot be sent on: the engine's requests
     * hold text.
     *
     * @param tools the definitions of the tools the prompt offers (its callbacks and the tools it names, resolved)
     * @param failedCalls the results whose tool failed ({@link #resultKey}): they are sent as errors
     */
    static ModelRequest modelRequest(Prompt prompt, List<ToolDefinition> tools, Set<String> failedCalls) {
        List<Message> messages = new ArrayList<>();
        for (org.springframework.ai.chat.messages.Message message : prompt.getInstructions()) {
            MessageType type = message.getMessageType();
            String text = message.getText() == null ? "" : message.getText();
            if (type == MessageType.SYSTEM) {
                messages.add(Message.system(text));
            }
            else if (type == MessageType.USER && (!(message instanceof UserMessage user)
                    || user.getMedia().isEmpty())) {
                messages.add(Message.user(text));
            }
            else if (type == MessageType.ASSISTANT && (!(message instanceof AssistantMessage assistant)
                    || assistant.getMedia().isEmpty())) {
                messages.add(message instanceof AssistantMessage assistant
                        ? Message.assistant(text, toolCalls(assistant)) : Message.assistant(text));
            }
            else if (message instanceof ToolResponseMessage results) {
                for (ToolResponseMessage.ToolResponse result : results.getResponses()) {
                    ToolCall call = new ToolCall(result.name() == null ? "" : result.name(), Map.of(), result.id());
                    String data = result.responseData() == null ? "" : result.responseData();
                    messages.add(failedCalls.contains(resultKey(result)) ? Message.toolError(call, data)
                            : Message.toolResult(call, data));
                }
            }
            else {
                throw new UnsupportedOperationException("The engine's ChatModel sends system, user, assistant and "
                        + "tool response messages, as text; this prompt has a " + type + " message with media or of a "
                        + "kind it does not know (" + message.getClass().getName() + ")");
            }
        }
        ModelRequest request = ModelRequest.ofMessages(messages);
        ChatOptions options = prompt.getOptions();
        if (options != null) {
            if (options.getTemperature() != null) {
                request = request.withTemperature(options.getTemperature());
            }
            if (options.getMaxTokens() != null) {
                request = request.withMaxTokens(options.getMaxTokens());
            }
        }
        if (!tools.isEmpty()) {
            List<Map<String, Object>> definitions = new ArrayList<>();
            for (ToolDefinition tool : tools) {
                definitions.add(toolDefinition(tool));
            }
            request = request.withTools(definitions);
        }
        return request;
    }

    /** The definitions of the tool callbacks a prompt's options carry; none when they carry none. */
    static List<ToolDefinition> callbackDefinitions(Prompt prompt) {
        List<ToolDefinition> definitions = new ArrayList<>();
        if (prompt.getOptions() instanceof ToolCallingChatOptions options && options.getToolCallbacks() != null) {
            for (ToolCallback callback : options.getToolCallbacks()) {
                definitions.add(callback.getToolDefinition());
            }
        }
        return definitions;
    }

    /**
     * The engine's completion as a Spring AI response; its model is the eval's model key. A tool call keeps the id
     * the model gave it; one without gets {@code call_<n>}, numbered on from the calls earlier in the conversation, so
     * that every id of the conversation is different and each response answers one call.
     *
     * @param earlierCalls how many tool calls the conversation sent with the request already holds
     */
    static ChatResponse chatResponse(Completion completion, String modelKey, int earlierCalls) {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        for (ToolCall call : completion.toolCalls()) {
            String id = call.hasId() ? call.id() : "call_" + (earlierCalls + calls.size() + 1);
            calls.add(new AssistantMessage.ToolCall(id, "function", call.name(),
                    ToolArguments.write(call.arguments())));
        }
        AssistantMessage message = AssistantMessage.builder().content(completion.text()).toolCalls(calls).build();
        ChatResponseMetadata metadata = ChatResponseMetadata.builder().model(modelKey)
                .usage(new DefaultUsage(Math.toIntExact(completion.tokensIn()),
                        Math.toIntExact(completion.tokensOut())))
                .build();
        return new ChatResponse(List.of(new Generation(message)), metadata);
    }

    /** How many tool calls the assistant turns of a request asked for. */
    static int toolCallsIn(ModelRequest request) {
        int calls = 0;
        for (Message message : request.messages()) {
            calls += message.toolCalls().size();
        }
        return calls;
    }

    private static Map<String, Object> toolDefinition(ToolDefinition tool) {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", tool.name());
        if (tool.description() != null && !tool.description().isBlank()) {
            function.put("description", tool.description());
        }
        if (tool.inputSchema() != null && !tool.inputSchema().isBlank()) {
            try {
                function.put("parameters", Json.MAPPER.readValue(tool.inputSchema(), LinkedHashMap.class));
            }
            catch (JsonProcessingException e) {
                throw new IllegalArgumentException("the input schema of tool " + tool.name() + " is not JSON", e);
            }
        }
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("type", "function");
        definition.put("function", function);
        return definition;
    }
}
