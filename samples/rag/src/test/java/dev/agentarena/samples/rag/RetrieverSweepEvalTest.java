package dev.agentarena.samples.rag;

import java.util.List;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalConfiguration;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.TaskConfiguration;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.samples.rag.retrieval.Indexes;
import dev.agentarena.samples.rag.retrieval.Retriever;

/**
 * Retrieval only, no model: Lucene BM25, Lucene vectors and their hybrid, each at top-3 and top-5, compared on the
 * handbook questions in the leaderboard as models are. No model is called: the task returns the passages only.
 */
// tag::sweep[]
@Eval(value = "handbook-retrievers",
        scorers = {"retrieval_hit", "retrieval_recall", "retrieval_mrr", "retrieval_ndcg"})
@EvalConfiguration(name = "bm25-k3", settings = {"retriever=bm25", "top_k=3"})
@EvalConfiguration(name = "bm25-k5", settings = {"retriever=bm25", "top_k=5"})
@EvalConfiguration(name = "vectors-k3", settings = {"retriever=vectors", "top_k=3"})
@EvalConfiguration(name = "vectors-k5", settings = {"retriever=vectors", "top_k=5"})
@EvalConfiguration(name = "hybrid-k3", settings = {"retriever=hybrid", "top_k=3"})
@EvalConfiguration(name = "hybrid-k5", settings = {"retriever=hybrid", "top_k=5"})
@EvalDataset("/tallis-questions.jsonl")
class RetrieverSweepEvalTest {

    @Task
    List<RetrievedPassage> retrieve(String input, TaskConfiguration configuration) {
        Indexes indexes = Indexes.get();
        Retriever retriever = switch (configuration.get("retriever")) {
            case "bm25" -> indexes.bm25();
            case "vectors" -> indexes.vectors();
            case "hybrid" -> indexes.hybrid();
            default -> throw new IllegalArgumentException("no retriever " + configuration.get("retriever"));
        };
        return retriever.retrieve(input, configuration.getInt("top_k"));
    }
}
// end::sweep[]
