package dev.agentarena.samples.springai2;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * The desk's rule-based fallback, a Spring AI {@code ChatModel} like a provider's: when a message names an order and
 * {@code lookup_order} is offered, it asks for that tool; given the tool's result, it answers with it. Offline and
 * deterministic, so the eval can rank it next to the simulated LLMs.
 */
class RuleBasedDeskModel implements ChatModel {

    private static final Pattern ORDER = Pattern.compile("\\b(\\d{3,})\\b");

    @Override
    public ChatResponse call(Prompt prompt) {
        List<Message> messages = prompt.getInstructions();
        Message last = messages.get(messages.size() - 1);
        if (last instanceof ToolResponseMessage results) {
            return reply(AssistantMessage.builder().content(results.getResponses().get(0).responseData()).build());
        }
        Matcher order = ORDER.matcher(last.getText() == null ? "" : last.getText());
        if (order.find() && offers(prompt, "lookup_order")) {
            AssistantMessage.ToolCall lookup = new AssistantMessage.ToolCall("lookup-" + order.group(1), "function",
                    "lookup_order", "{\"orderId\": " + order.group(1) + "}");
            return reply(AssistantMessage.builder().content("").toolCalls(List.of(lookup)).build());
        }
        return reply(AssistantMessage.builder().content("Please tell me your order number.").build());
    }

    /** As a provider's model: a 2.0 ChatClient keeps a request's tools only for tool-calling options. */
    @Override
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    private static boolean offers(Prompt prompt, String tool) {
        return prompt.getOptions() instanceof ToolCallingChatOptions options
                && options.getToolCallbacks().stream().anyMatch(t -> t.getToolDefinition().name().equals(tool));
    }

    private static ChatResponse reply(AssistantMessage message) {
        return new ChatResponse(List.of(new Generation(message)));
    }
}
