package dev.agentarena.samples.rag;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.samples.rag.apps.LangChain4jHandbookAssistant;
import dev.agentarena.samples.rag.apps.ReaderModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.Result;

/**
 * The LangChain4j RAG app (an AI service with a {@code ContentRetriever} over the in-memory embedding store), on the
 * engine's {@code ChatModel} for the offline reader model, over the handbook questions.
 */
@Eval("handbook-langchain4j")
@UseModels(ReaderModelProvider.KEY)
@EvalDataset("/tallis-questions.jsonl")
class LangChain4jRagEvalTest {

    @Task
    TaskOutput answer(String input, ChatModel model) {
        Result<String> result = LangChain4jHandbookAssistant.create(model, 5).answer(input);
        return TaskOutput.of(result.content()).withRetrieved(result.sources().stream()
                .map(c -> RetrievedPassage.of(c.textSegment().metadata().getString("id"), c.textSegment().text()))
                .toList());
    }

    @Scorer
    double recallAt5(EvalCase testCase, ScoringContext context) {
        return InterimTruth.recallAt(5, testCase, context.retrieved());
    }
}
