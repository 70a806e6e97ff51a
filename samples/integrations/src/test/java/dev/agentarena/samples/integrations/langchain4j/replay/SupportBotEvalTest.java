package dev.agentarena.samples.integrations.langchain4j.replay;

import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.EvalModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;

/**
 * The team's own LangChain4j chat model as the eval's model ({@code @EvalModel}). The build replays the recordings
 * committed under {@code src/test/resources/arena-recordings/support-bot/} (Surefire execution {@code replay},
 * {@code arena.cache.mode=replay}): the model is never built nor called, so CI needs no key and no network.
 * {@code LangChain4jLoopbackIT} records them again through LangChain4j's real OpenAI client against a loopback server
 * and checks they match. Against OpenAI itself: {@code OPENAI_API_KEY=... mvn test -Darena.cache.mode=record}.
 */
@Eval(value = "support-bot", scorers = "contains")
public class SupportBotEvalTest {

    @EvalModel("support-bot")
    ChatModel supportBot() {
        return OpenAiChatModel.builder()
                .baseUrl(setting("openai.base-url", "OPENAI_BASE_URL", "https://api.openai.com/v1"))
                .apiKey(setting("openai.api-key", "OPENAI_API_KEY", "no-key"))
                .modelName("gpt-4o-mini")
                .build();
    }

    @EvalDataset
    Stream<EvalCase> questions() {
        return Stream.of(
                EvalCase.of("return_window", "How long do I have to return an item?", "30 days"),
                EvalCase.of("shipping_cost", "Is shipping free?", "over $50"),
                EvalCase.of("order_status", "Where can I see the status of my order?", "My Orders"));
    }

    /** A system property (set by LangChain4jLoopbackIT), else an environment variable, else a default. */
    private static String setting(String property, String environment, String otherwise) {
        return System.getProperty(property, System.getenv().getOrDefault(environment, otherwise));
    }
}
