package dev.agentarena.samples.rag;

import java.util.List;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatResponse;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.samples.rag.apps.ReaderModelProvider;
import dev.agentarena.samples.rag.apps.SpringAiHandbookAssistant;

/**
 * The Spring AI RAG app ({@code ChatClient} with {@code QuestionAnswerAdvisor} over a {@code SimpleVectorStore}),
 * on the engine's {@code ChatClient} for the offline reader model, over the handbook questions.
 */
@Eval("handbook-spring-ai")
@UseModels(ReaderModelProvider.KEY)
@EvalDataset("/tallis-questions.jsonl")
class SpringAiRagEvalTest {

    @Task
    TaskOutput answer(String input, ChatClient chat) {
        ChatResponse response = new SpringAiHandbookAssistant(chat, 5).answer(input);
        List<RetrievedPassage> passages = SpringAiHandbookAssistant.retrieved(response).stream()
                .map(d -> RetrievedPassage.of(d.getId(), d.getText()).withScore(d.getScore()))
                .toList();
        return TaskOutput.of(response.getResult().getOutput().getText()).withRetrieved(passages);
    }

    @Scorer
    double recallAt5(EvalCase testCase, ScoringContext context) {
        return InterimTruth.recallAt(5, testCase, context.retrieved());
    }
}
