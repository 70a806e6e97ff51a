package dev.agentarena.junit.engine.integration.springai;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientCustomizer;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.model.tool.ToolCallingManager;

import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The part of the integration that names Spring AI's chat types; loaded only when Spring AI is present. The chat
 * client's types are named only in methods that run when it is present too.
 */
final class SpringAiChatModels {

    private SpringAiChatModels() {
    }

    static boolean isChatModel(Object model, boolean clientAvailable) {
        return model instanceof ChatModel || clientAvailable && Clients.isChatClient(model);
    }

    static ModelClient client(String modelKey, Object model, ModelPricing pricing) {
        if (model instanceof ChatModel) {
            return SpringAiModelClient.of(modelKey, (ChatModel) model, pricing);
        }
        return Clients.client(modelKey, model, pricing);
    }

    static boolean accepts(Class<?> type, boolean clientAvailable) {
        return type != Object.class
                && (type.isAssignableFrom(ChatModel.class) || clientAvailable && Clients.accepts(type));
    }

    static void chatModelFor(List<Class<?>> parameterTypes, String modelKey, Function<ModelRequest, Completion> calls,
            boolean clientAvailable, Map<Class<?>, Object> values) {
        ArenaSpringChatModel model = new ArenaSpringChatModel(modelKey, calls);
        for (Class<?> type : parameterTypes) {
            if (type == Object.class) {
                continue;
            }
            if (type.isAssignableFrom(ChatModel.class)) {
                values.put(ChatModel.class, model);
            }
            else if (clientAvailable) {
                Clients.chatClientFor(type, model, values);
            }
        }
    }

    /** What names the chat client's types, kept apart so a model-only class path never loads them. */
    private static final class Clients {

        static boolean isChatClient(Object model) {
            return model instanceof ChatClient;
        }

        static ModelClient client(String modelKey, Object model, ModelPricing pricing) {
            return SpringAiModelClient.of(modelKey, (ChatClient) model, pricing);
        }

        static boolean accepts(Class<?> type) {
            return type.isAssignableFrom(ChatClient.class) || type.isAssignableFrom(ChatClient.Builder.class);
        }

        static void chatClientFor(Class<?> type, ArenaSpringChatModel model, Map<Class<?>, Object> values) {
            if (type.isAssignableFrom(ChatClient.class)) {
                values.put(ChatClient.class, builder(model).build());
            }
            else if (type.isAssignableFrom(ChatClient.Builder.class)) {
                values.put(ChatClient.Builder.class, builder(model));
            }
        }

        /**
         * On 2.x the client runs the tools, with callbacks the model watches; on 1.x the model does both. On both, the
         * documents its RAG advisors retrieve are the case's passages.
         */
        static ChatClient.Builder builder(ArenaSpringChatModel model) {
            ChatClient.Builder builder = ChatClient.builder(model).defaultAdvisors(new RetrievedDocuments());
            return SpringAiIntegration.modelsRunTools() ? builder
                    : builder.defaultAdvisors(new WatchingToolsAdvisor(model));
        }

        static Optional<TaskOutput> taskOutput(Object returned) {
            return RetrievedDocuments.taskOutput(returned);
        }

        static Object retrievalCustomizer() {
            return (ChatClientCustomizer) builder -> builder.defaultAdvisors(new RetrievedDocuments());
        }
    }

    static Optional<TaskOutput> taskOutput(Object returned, boolean clientAvailable) {
        return clientAvailable ? Clients.taskOutput(returned) : Optional.empty();
    }

    static Object retrievalCustomizer() {
        return Clients.retrievalCustomizer();
    }

    static Class<?> chatModelType() {
        return ChatModel.class;
    }

    static Object routedChatModel(String beanName, Function<Class<?>, List<?>> beans) {
        return new RoutedSpringChatModel(beanName, () -> {
            List<?> managers = beans.apply(ToolCallingManager.class);
            return managers.size() == 1 ? (ToolCallingManager) managers.get(0) : ArenaSpringChatModel.TOOLS;
        });
    }
}
