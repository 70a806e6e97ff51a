package dev.agentarena.samples.springai2;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.RouteChatModelsToArena;
import dev.agentarena.junit.ScorerOption;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;

/**
 * Evaluates the desk's agent as it ships, on Spring Boot 4 and Spring AI 2.0: Spring Boot starts the application,
 * {@code @RouteChatModelsToArena} stands the model under evaluation in for the app's {@code ChatModel} bean, and the
 * agent's {@code ChatClient} runs its tool loop over it. Every step is a model call through the engine, and the
 * trajectory scorers grade the tools it called against the dataset's expected trajectories.
 */
@SpringBootTest
@RouteChatModelsToArena
@Eval(value = "spring-ai-2-routed-agent", scorers = {"contains", "trajectory", "tool_precision_recall"})
@ScorerOption(scorer = "trajectory", name = "mode", value = "in_order")
@EvalDataset("support-agent.jsonl")
@UseModels({"sim_small", "sim_large"})
class SupportAgentRoutedEvalTest {

    private final SupportAgent agent;

    @Autowired
    SupportAgentRoutedEvalTest(SupportAgent agent) {
        this.agent = agent;
    }

    @Task
    String answer(String input) {
        return agent.answer(input);
    }
}
