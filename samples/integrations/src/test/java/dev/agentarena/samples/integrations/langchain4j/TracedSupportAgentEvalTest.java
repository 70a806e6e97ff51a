package dev.agentarena.samples.integrations.langchain4j;

import java.util.List;

import io.opentelemetry.api.OpenTelemetry;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.RouteChatModelsToArena;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.tracing.TraceSpan;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;

/**
 * A traced Spring Boot app built with LangChain4j, evaluated with its own spans: the support agent (an AI service
 * with the order tools) on the app's {@code ChatModel} bean, which {@code @RouteChatModelsToArena} routes to the model
 * under evaluation, and a {@code ChatModelListener} bean that traces each model call ({@link GenAiSpansListener}).
 * The routed model calls the app's listener beans as the app's own model did, and the engine's span processor is part
 * of the SDK Spring Boot builds, so each case's {@link ScoringContext#spans()} hold a {@code chat} span per call the
 * agent made, with no tracing code in the eval.
 */
@SpringBootTest(classes = TracedSupportAgentEvalTest.SupportAgentApp.class)
@RouteChatModelsToArena
@Eval(value = "langchain4j-app-spans", scorers = "contains")
@EvalDataset("support-agent.jsonl")
@UseModels("sim_large")
class TracedSupportAgentEvalTest {

    @Autowired
    SupportAgentEvalTest.SupportAgent agent;

    @Task
    String answer(String input) {
        return agent.answer(input);
    }

    /**
     * Whether the case's spans are the agent's model calls: a {@code chat} span per call the agent made (a tool the
     * case's {@code tool_results} answer takes the engine a call of its own, which the app never sees).
     */
    @Scorer
    ScoreResult chatSpans(ScoringContext context) {
        List<TraceSpan> chats = context.spans().stream()
                .filter(span -> "chat".equals(span.attributes().get(TraceSpan.OPERATION_NAME))).toList();
        int calls = context.trajectory().modelSteps().size();
        boolean fixed = context.trajectory().toolSteps().stream().anyMatch(step -> step.fixed());
        String shown = chats.size() + " chat spans for " + calls + " model calls"
                + (chats.isEmpty() ? "" : ", first " + chats.get(0).attributes());
        return !chats.isEmpty() && (fixed ? chats.size() <= calls : chats.size() == calls) ? ScoreResult.pass(shown)
                : ScoreResult.fail(shown);
    }

    /** The support agent as the app configures it; Spring Boot's auto-configuration does the rest. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class SupportAgentApp {

        @Bean
        SupportAgentEvalTest.SupportAgent supportAgent(ChatModel model) {
            return SupportAgentEvalTest.agent(model);
        }

        @Bean
        ChatModelListener genAiSpans(OpenTelemetry openTelemetry) {
            return new GenAiSpansListener(openTelemetry.getTracer("support-agent"));
        }
    }
}
