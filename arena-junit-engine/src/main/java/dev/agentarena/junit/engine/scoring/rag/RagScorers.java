package dev.agentarena.junit.engine.scoring.rag;

import static dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Option.of;
import static dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Type.NUMBER;

import java.util.List;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.models.simulated.AnswerShape;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * The RAG judge metrics, one row each: the scorer and its declaration. They ask the run's judge
 * ({@code arena.judge.model}) through {@code ScoringContext.judge()}, so their calls are charged, recorded and
 * replayed as {@code llm_judge}'s are; each reads the case's retrieved passages, reference or answer as it needs.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class RagScorers {

    private record Rag(Supplier<OutputScorer> create, ScorerDeclaration declaration) {
    }

    private static final List<Rag> RAG = List.of(
            new Rag(FaithfulnessScorer::new, ScorerDeclaration.of("faithfulness",
                    "Judge: claims of the answer supported by the retrieved passages / claims (2 judge calls)",
                    AnswerShape.TEXT, of("threshold", NUMBER, "0.5"))),
            new Rag(ContextPrecisionScorer::new, ScorerDeclaration.of("context_precision",
                    "Judge: average precision over per-passage relevance verdicts against the reference (1 call)",
                    AnswerShape.TEXT, of("threshold", NUMBER, "0.5"))),
            new Rag(ContextRecallScorer::new, ScorerDeclaration.of("context_recall",
                    "Judge: reference statements the retrieved passages support / statements (1 call)",
                    AnswerShape.TEXT, of("threshold", NUMBER, "0.5"))),
            new Rag(AnswerRelevanceScorer::new, ScorerDeclaration.of("answer_relevance",
                    "Judge: statements of the answer that address the question / statements (1 call)",
                    AnswerShape.TEXT, of("threshold", NUMBER, "0.5"))));

    private RagScorers() {
    }

    /** A fresh instance of each. */
    public static List<OutputScorer> all() {
        return RAG.stream().map(rag -> rag.create().get()).toList();
    }

    /** Their declarations, in the order of {@link #all()}. */
    public static List<ScorerDeclaration> declarations() {
        return RAG.stream().map(Rag::declaration).toList();
    }
}
