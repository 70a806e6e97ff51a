package dev.agentarena.junit.engine.integration.langchain4j;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;

/** The part of the integration that names LangChain4j types; loaded only when LangChain4j is present. */
final class LangChain4jChatModels {

    private LangChain4jChatModels() {
    }

    static boolean isChatModel(Object model) {
        return model instanceof ChatModel;
    }

    static ModelClient client(String modelKey, Object chatModel, ModelPricing pricing) {
        return new LangChain4jModelClient(modelKey, (ChatModel) chatModel, pricing);
    }

    static boolean accepts(Class<?> type) {
        return type != Object.class && type.isAssignableFrom(ChatModel.class);
    }

    static void chatModelFor(List<Class<?>> parameterTypes, String modelKey, Function<ModelRequest, Completion> calls,
            Map<Class<?>, Object> values) {
        for (Class<?> type : parameterTypes) {
            if (accepts(type)) {
                values.put(ChatModel.class, new ArenaChatModel(modelKey, calls));
                return;
            }
        }
    }

    static Class<?> chatModelType() {
        return ChatModel.class;
    }

    static Object routedChatModel(String beanName, Function<Class<?>, List<?>> beans) {
        return new RoutedChatModel(beanName, () -> beans.apply(ChatModelListener.class).stream()
                .map(ChatModelListener.class::cast).toList());
    }
}
