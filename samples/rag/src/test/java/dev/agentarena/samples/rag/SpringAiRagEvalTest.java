package dev.agentarena.samples.rag;

import org.springframework.ai.chat.client.ChatClient;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.samples.rag.apps.ReaderModelProvider;
import dev.agentarena.samples.rag.apps.SpringAiHandbookAssistant;

/**
 * The Spring AI RAG app ({@code ChatClient} with {@code QuestionAnswerAdvisor} over a {@code SimpleVectorStore}) on
 * the engine's {@code ChatClient}, answering the handbook questions on the offline reader model. The task returns the
 * answer only: the engine reads the documents the advisor retrieved from the response, and the retrieval scorers
 * grade them against each question's relevant passages.
 */
// tag::spring-ai[]
@Eval(value = "handbook-spring-ai",
        scorers = {"retrieval_hit", "retrieval_recall", "retrieval_mrr", "retrieval_ndcg", "faithfulness",
                "context_precision"})
@UseModels(ReaderModelProvider.KEY)
@EvalDataset("/tallis-questions.jsonl")
class SpringAiRagEvalTest {

    @Task
    String answer(String input, ChatClient chat) {
        return new SpringAiHandbookAssistant(chat, 5).answer(input);
    }
}
// end::spring-ai[]
