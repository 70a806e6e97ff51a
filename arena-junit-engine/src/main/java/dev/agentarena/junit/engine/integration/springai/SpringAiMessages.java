package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
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

import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.json.ToolArguments;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;

/**
 * Translates between the engine's requests and completions and Spring AI's prompts and chat responses: text
 * messages, temperature, the output token limit, tool definitions (as OpenAI function definitions on the engine's
 * side) and tool calls. What the engine cannot carry, such as media or tool responses, is refused with a message that
 * says so rather than dropped.
 */
final class SpringAiMessages {

    private SpringAiMessages() {
    }

    /** The engine's request as a Spring AI prompt, for a Spring AI model under evaluation. */
    static Prompt prompt(ModelRequest request, String modelKey) {
        if (!request.tools().isEmpty()) {
            throw new IllegalArgumentException(modelKey + ": tool definitions are not passed to a Spring AI model "
                    + "under evaluation; give the tools to the ChatClient or ChatModel itself");
        }
        List<org.springframework.ai.chat.messages.Message> messages = new ArrayList<>();
        for (Message message : request.messages()) {
            switch (message.role()) {
                case "system":
                    messages.add(new SystemMessage(message.content()));
                    break;
                case "user":
                    messages.add(new UserMessage(message.content()));
                    break;
                case "assistant":
                    messages.add(new AssistantMessage(message.content()));
                    break;
                default:
                    throw new IllegalArgumentException(modelKey + ": a Spring AI chat model is sent system, user and "
                            + "assistant messages; this request has a '" + message.role() + "' message");
            }
        }
        if (request.temperature().isEmpty() && request.maxTokens().isEmpty()) {
            return new Prompt(messages);
        }
        ChatOptions options = ChatOptions.builder().temperature(request.temperature().orElse(null))
                .maxTokens(request.maxTokens().orElse(null)).build();
        return new Prompt(messages, options);
    }

    /** A Spring AI response as the engine's completion, without latency or cost, which the caller adds. */
    static Completion completion(ChatResponse response) {
        String text = "";
        List<ToolCall> calls = new ArrayList<>();
        if (response.getResult() != null && response.getResult().getOutput() != null) {
            AssistantMessage output = response.getResult().getOutput();
            text = output.getText() == null ? "" : output.getText();
            if (output.hasToolCalls()) {
                for (AssistantMessage.ToolCall call : output.getToolCalls()) {
                    calls.add(new ToolCall(call.name() == null ? "" : call.name(),
                            ToolArguments.parse(call.arguments())));
                }
            }
        }
        Usage usage = response.getMetadata() == null ? null : response.getMetadata().getUsage();
        long in = usage == null || usage.getPromptTokens() == null ? 0 : usage.getPromptTokens();
        long out = usage == null || usage.getCompletionTokens() == null ? 0 : usage.getCompletionTokens();
        return Completion.of(text).withToolCalls(calls).withTokens(in, out);
    }

    /** The model name a response reports, if any. */
    static String reportedModel(ChatResponse response) {
        return response.getMetadata() == null ? null : response.getMetadata().getModel();
    }

    /**
     * A Spring AI prompt as the engine's request, for the {@code ChatModel} the engine provides. A conversation that
     * carries tool responses or media cannot be sent on: the engine's requests hold text.
     */
    static ModelRequest modelRequest(Prompt prompt) {
        List<Message> messages = new ArrayList<>();
        for (org.springframework.ai.chat.messages.Message message : prompt.getInstructions()) {
            MessageType type = message.getMessageType();
            String text = message.getText() == null ? "" : message.getText();
            if (type == MessageType.SYSTEM) {
                messages.add(Message.system(text));
            }
            else if (type == MessageType.USER && (!(message instanceof UserMessage)
                    || ((UserMessage) message).getMedia().isEmpty())) {
                messages.add(Message.user(text));
            }
            else if (type == MessageType.ASSISTANT && (!(message instanceof AssistantMessage)
                    || !((AssistantMessage) message).hasToolCalls())) {
                messages.add(Message.assistant(text));
            }
            else {
                throw new UnsupportedOperationException("The engine's ChatModel sends text conversations and tool "
                        + "definitions, and returns the model's text and tool calls; it cannot send on media, tool "
                        + "calls or their results (found a " + type + " message: media, or the second turn of tool "
                        + "calling). Return the tool calls as the task's output for the tool-call scorers.");
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
            if (options instanceof ToolCallingChatOptions) {
                List<ToolCallback> callbacks = ((ToolCallingChatOptions) options).getToolCallbacks();
                if (callbacks != null && !callbacks.isEmpty()) {
                    List<Map<String, Object>> tools = new ArrayList<>();
                    for (ToolCallback callback : callbacks) {
                        tools.add(toolDefinition(callback.getToolDefinition()));
                    }
                    request = request.withTools(tools);
                }
            }
        }
        return request;
    }

    /** The engine's completion as a Spring AI response; its model is the eval's model key. */
    static ChatResponse chatResponse(Completion completion, String modelKey) {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        for (ToolCall call : completion.toolCalls()) {
            calls.add(new AssistantMessage.ToolCall("call_" + (calls.size() + 1), "function", call.name(),
                    ToolArguments.write(call.arguments())));
        }
        AssistantMessage message = AssistantMessage.builder().content(completion.text()).toolCalls(calls).build();
        ChatResponseMetadata metadata = ChatResponseMetadata.builder().model(modelKey)
                .usage(new DefaultUsage(Math.toIntExact(completion.tokensIn()),
                        Math.toIntExact(completion.tokensOut())))
                .build();
        return new ChatResponse(List.of(new Generation(message)), metadata);
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
