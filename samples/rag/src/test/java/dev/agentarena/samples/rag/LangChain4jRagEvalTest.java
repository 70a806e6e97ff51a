package dev.agentarena.samples.rag;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.samples.rag.apps.LangChain4jHandbookAssistant;
import dev.agentarena.samples.rag.apps.ReaderModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.Result;

/**
 * The LangChain4j RAG app (an AI service with a {@code ContentRetriever} over the in-memory embedding store) on the
 * engine's {@code ChatModel}, answering the handbook questions on the offline reader model. The task returns the
 * service's {@code Result}: the engine takes its answer, and its {@code sources()} as the retrieved passages.
 */
// tag::langchain4j[]
@Eval(value = "handbook-langchain4j",
        scorers = {"retrieval_hit", "retrieval_recall", "retrieval_mrr", "retrieval_ndcg", "faithfulness",
                "context_precision"})
@UseModels(ReaderModelProvider.KEY)
@EvalDataset("/tallis-questions.jsonl")
class LangChain4jRagEvalTest {

    @Task
    Result<String> answer(String input, ChatModel model) {
        return LangChain4jHandbookAssistant.create(model, 5).answer(input);
    }
}
// end::langchain4j[]
