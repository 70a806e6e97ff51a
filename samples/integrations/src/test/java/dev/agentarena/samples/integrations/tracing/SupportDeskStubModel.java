package dev.agentarena.samples.integrations.tracing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.observation.ChatModelObservationContext;
import org.springframework.ai.chat.observation.ChatModelObservationDocumentation;
import org.springframework.ai.chat.observation.DefaultChatModelObservationConvention;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;

/**
 * The support app's chat model, offline: a scripted stand-in for a provider's {@code ChatModel} that behaves as Spring
 * AI's provider models do where tracing sees it. Each call is a {@code gen_ai.client.operation} observation (Spring
 * AI's chat-model convention, with the request model, finish reason and token usage), and the tool loop runs in the
 * model through Spring AI's {@code ToolCallingManager}, whose tool calls are observations too. The script picks the
 * tools from the customer's words (look an order up, refund it, escalate it) and answers from the tools' results or,
 * with none, from the passages the retrieval advisor put in the prompt.
 */
final class SupportDeskStubModel implements ChatModel {

    static final String MODEL = "support-desk-stub-1";
    static final String PROVIDER = "support-desk-stub";

    private static final Pattern ORDER = Pattern.compile("\\b(\\d{4})\\b");
    private static final String CONTEXT_FENCE = "---------------------";

    private final ObservationRegistry observations;
    private final ToolCallingManager tools;

    SupportDeskStubModel(ObservationRegistry observations) {
        this.observations = observations;
        this.tools = ToolCallingManager.builder().observationRegistry(observations).build();
    }

    @Override
    public ChatOptions getDefaultOptions() {
        return ToolCallingChatOptions.builder().model(MODEL).temperature(0.0).build();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        ChatResponse response = observed(prompt);
        while (response.hasToolCalls() && ToolCallingChatOptions.isInternalToolExecutionEnabled(prompt.getOptions())) {
            ToolExecutionResult result = tools.executeToolCalls(prompt, response);
            prompt = new Prompt(result.conversationHistory(), prompt.getOptions());
            response = observed(prompt);
        }
        return response;
    }

    private ChatResponse observed(Prompt prompt) {
        ChatModelObservationContext context = ChatModelObservationContext.builder().prompt(prompt).provider(PROVIDER)
                .build();
        return ChatModelObservationDocumentation.CHAT_MODEL_OPERATION
                .observation(null, new DefaultChatModelObservationConvention(), () -> context, observations)
                .observe(() -> {
                    ChatResponse response = respond(prompt.getInstructions());
                    context.setResponse(response);
                    return response;
                });
    }

    /** The next step of the script: the next tool the question needs, or the answer once all have run. */
    private static ChatResponse respond(List<Message> messages) {
        String userText = messages.stream().filter(UserMessage.class::isInstance).reduce((a, b) -> b)
                .map(Message::getText).orElse("");
        String question = userText.split("\n\n", 2)[0];
        List<ToolResponseMessage.ToolResponse> done = messages.stream().filter(ToolResponseMessage.class::isInstance)
                .flatMap(m -> ((ToolResponseMessage) m).getResponses().stream()).toList();
        Set<String> called = Set.copyOf(done.stream().map(ToolResponseMessage.ToolResponse::name).toList());
        String order = orderNumber(question);
        for (String tool : plan(question, order)) {
            if (!called.contains(tool)) {
                String arguments = tool.equals("escalate")
                        ? "{\"orderId\":" + order + ",\"reason\":\"customer asks for a manager\"}"
                        : "{\"orderId\":" + order + "}";
                AssistantMessage call = AssistantMessage.builder().content("")
                        .toolCalls(List.of(new AssistantMessage.ToolCall("call_" + tool + "_" + order, "function",
                                tool, arguments)))
                        .build();
                return response(call, "tool_calls", userText.length());
            }
        }
        String answer = done.isEmpty() ? fromContext(question, userText)
                : String.join(" ", done.stream().map(r -> r.responseData().replace("\"", "")).toList());
        return response(new AssistantMessage(answer), "stop", userText.length());
    }

    private static List<String> plan(String question, String order) {
        String text = question.toLowerCase(Locale.ROOT);
        List<String> plan = new ArrayList<>();
        if (order == null) {
            return plan;
        }
        if (text.contains("manager") || text.contains("person")) {
            plan.add("escalate");
            return plan;
        }
        plan.add("lookup_order");
        if (text.contains("refund") || text.contains("money back") || text.contains("never arrived")) {
            plan.add("refund");
        }
        return plan;
    }

    private static String orderNumber(String question) {
        Matcher matcher = ORDER.matcher(question);
        return matcher.find() ? matcher.group(1) : null;
    }

    /** The help-page line that shares the most words with the question, from the passages fenced in the prompt. */
    private static String fromContext(String question, String userText) {
        int end = userText.lastIndexOf(CONTEXT_FENCE);
        int start = end < 0 ? -1 : userText.lastIndexOf(CONTEXT_FENCE, end - 1);
        String context = start < 0 ? "" : userText.substring(start + CONTEXT_FENCE.length(), end).strip();
        Set<String> asked = words(question);
        return context.lines().filter(line -> !line.isBlank())
                .max(Comparator.comparingLong(line -> words(line).stream().filter(asked::contains).count()))
                .map(line -> "From our help pages: " + line)
                .orElse("I am sorry, I could not find that in our help pages.");
    }

    private static Set<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")).filter(w -> w.length() > 3)
                .collect(Collectors.toSet());
    }

    private static ChatResponse response(AssistantMessage message, String finishReason, int promptChars) {
        int promptTokens = 1 + promptChars / 4;
        int completionTokens = 1 + (message.getText() == null ? 0 : message.getText().length() / 4)
                + 12 * message.getToolCalls().size();
        Generation generation = new Generation(message,
                ChatGenerationMetadata.builder().finishReason(finishReason).build());
        ChatResponseMetadata metadata = new ChatResponseMetadata.Builder().model(MODEL)
                .id("resp-" + Integer.toHexString(Math.abs((message.getText() + message.getToolCalls()).hashCode())))
                .usage(new DefaultUsage(promptTokens, completionTokens)).metadata(Map.of()).build();
        return new ChatResponse(List.of(generation), metadata);
    }
}
