package dev.agentarena.samples.integrations.langchain4j.replay;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.EvalModel;
import dev.agentarena.junit.Task;
import dev.agentarena.samples.integrations.langchain4j.SupportAgentEvalTest;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;

/**
 * The support agent of {@link SupportAgentEvalTest} (a LangChain4j AI service with three tools) on the team's own
 * OpenAI chat model ({@code @EvalModel}), replayed step by step from the recordings committed under
 * {@code src/test/resources/arena-recordings/support-agent-gpt/}: every model call of each case's tool loop, with the
 * tool calls it asked for and the results sent back. The build replays them (Surefire execution {@code replay},
 * {@code arena.cache.mode=replay}): the model is never built nor called, so CI needs no key and no network, while the
 * tools still run in the app. {@code LangChain4jLoopbackIT} records them again through LangChain4j's real OpenAI
 * client against a loopback server that speaks OpenAI's tool calls, and checks they match. Against OpenAI itself:
 * {@code OPENAI_API_KEY=... mvn test -Darena.cache.mode=record}.
 */
@Eval(value = "support-agent-replay", scorers = {"contains", "trajectory", "tool_success"})
@EvalDataset("support-agent.jsonl")
public class SupportAgentReplayEvalTest {

    @EvalModel("support-agent-gpt")
    ChatModel gpt() {
        return OpenAiChatModel.builder()
                .baseUrl(setting("openai.base-url", "OPENAI_BASE_URL", "https://api.openai.com/v1"))
                .apiKey(setting("openai.api-key", "OPENAI_API_KEY", "no-key"))
                .modelName("gpt-4o-mini")
                .build();
    }

    @Task
    String answer(String input, ChatModel model) {
        return SupportAgentEvalTest.agent(model).answer(input);
    }

    /** A system property (set by LangChain4jLoopbackIT), else an environment variable, else a default. */
    private static String setting(String property, String environment, String otherwise) {
        return System.getProperty(property, System.getenv().getOrDefault(environment, otherwise));
    }
}
