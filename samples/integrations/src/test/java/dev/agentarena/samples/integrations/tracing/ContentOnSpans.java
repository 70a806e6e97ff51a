package dev.agentarena.samples.integrations.tracing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationFilter;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.observation.ChatModelObservationContext;
import org.springframework.ai.document.Document;
import org.springframework.ai.vectorstore.observation.VectorStoreObservationContext;

/**
 * The app's own observation filter that puts the conversation's text on its spans: Spring AI 1.1 writes prompts,
 * completions and retrieved documents to its log only (its {@code *ContentObservationHandler}s), so an app that wants
 * them in its traces adds a filter like this one. Chat-model spans get the GenAI semantic conventions'
 * {@code gen_ai.input.messages} and {@code gen_ai.output.messages} (JSON, with tool calls and tool results as parts);
 * vector-store query spans get OpenInference's {@code retrieval.documents.<i>.document.id/content/score/metadata}.
 */
final class ContentOnSpans implements ObservationFilter {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Observation.Context map(Observation.Context context) {
        if (context instanceof ChatModelObservationContext chat) {
            context.addHighCardinalityKeyValue(KeyValue.of("gen_ai.input.messages",
                    json(chat.getRequest().getInstructions().stream().map(ContentOnSpans::message).toList())));
            ChatResponse response = chat.getResponse();
            if (response != null && response.getResult() != null) {
                Map<String, Object> output = message(response.getResult().getOutput());
                output.put("finish_reason", response.getResult().getMetadata().getFinishReason());
                context.addHighCardinalityKeyValue(KeyValue.of("gen_ai.output.messages", json(List.of(output))));
            }
        }
        else if (context instanceof VectorStoreObservationContext store && store.getQueryResponse() != null) {
            List<Document> documents = store.getQueryResponse();
            for (int i = 0; i < documents.size(); i++) {
                Document document = documents.get(i);
                String prefix = "retrieval.documents." + i + ".document.";
                context.addHighCardinalityKeyValue(KeyValue.of(prefix + "id", document.getId()));
                context.addHighCardinalityKeyValue(KeyValue.of(prefix + "content", document.getText()));
                if (document.getScore() != null) {
                    context.addHighCardinalityKeyValue(KeyValue.of(prefix + "score", document.getScore().toString()));
                }
                Map<String, Object> metadata = new LinkedHashMap<>(document.getMetadata());
                metadata.remove("distance");
                context.addHighCardinalityKeyValue(KeyValue.of(prefix + "metadata", json(metadata)));
            }
        }
        return context;
    }

    /** One message in the conventions' shape: a role and its parts. */
    private static Map<String, Object> message(Message message) {
        List<Map<String, Object>> parts = new ArrayList<>();
        if (message.getText() != null && !message.getText().isEmpty()) {
            parts.add(Map.of("type", "text", "content", message.getText()));
        }
        if (message instanceof AssistantMessage assistant) {
            assistant.getToolCalls().forEach(call -> parts.add(Map.of("type", "tool_call", "id", call.id(),
                    "name", call.name(), "arguments", arguments(call.arguments()))));
        }
        if (message instanceof ToolResponseMessage tool) {
            tool.getResponses().forEach(r -> parts.add(Map.of("type", "tool_call_response", "id", r.id(),
                    "response", r.responseData())));
        }
        Map<String, Object> shaped = new LinkedHashMap<>();
        shaped.put("role", switch (message.getMessageType()) {
            case USER -> "user";
            case ASSISTANT -> "assistant";
            case SYSTEM -> "system";
            case TOOL -> "tool";
        });
        shaped.put("parts", parts);
        return shaped;
    }

    private static Object arguments(String arguments) {
        try {
            return JSON.readTree(arguments);
        }
        catch (JsonProcessingException e) {
            return arguments;
        }
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
