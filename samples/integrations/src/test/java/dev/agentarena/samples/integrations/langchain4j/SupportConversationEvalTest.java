package dev.agentarena.samples.integrations.langchain4j;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;

/**
 * The support agent of {@link SupportAgentEvalTest} in a conversation with a simulated user: each case of
 * {@code src/test/resources/support-conversations.jsonl} gives the user a goal, a persona, a turn limit and, for some,
 * a stop phrase. The engine has the offline {@code sim_user} write each user turn and calls the task once per turn
 * with it; the AI service keeps the conversation in its chat memory, as in production, and runs its tools. How each
 * conversation ended is a metric ({@code goal_met}, {@code user_done}, {@code turn_limit}); {@code contains} grades
 * the last answer, {@code trajectory} every tool call of the conversation, and {@code answered} each turn's answer.
 */
@Eval(value = "support-conversations", scorers = {"contains", "trajectory"})
@EvalDataset("support-conversations.jsonl")
@UseModels({"sim_small", "sim_large"})
public class SupportConversationEvalTest {

    /** One chat memory per conversation: what the AI service remembers between turns. */
    private final Map<String, ChatMemory> memories = new ConcurrentHashMap<>();

    @Task
    String chat(String input, String conversationId, ChatModel chatModel) {
        // distinct per case, model and repeat: two runs of a conversation never share a memory
        ChatMemory memory = memories.computeIfAbsent(conversationId, id -> MessageWindowChatMemory.withMaxMessages(40));
        SupportAgentEvalTest.SupportAgent agent = AiServices.builder(SupportAgentEvalTest.SupportAgent.class)
                .chatModel(chatModel).chatMemory(memory).tools(new SupportAgentEvalTest.SupportTools()).build();
        return agent.answer(input);
    }

    /** Every answer of the agent says something to the customer: graded turn by turn. */
    @Scorer(perTurn = true)
    boolean answered(String output, ScoringContext context) {
        return !output.isBlank() && context.turn().isPresent();
    }
}
