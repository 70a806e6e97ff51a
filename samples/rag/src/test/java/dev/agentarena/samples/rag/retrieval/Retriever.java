package dev.agentarena.samples.rag.retrieval;

import java.util.List;

import dev.agentarena.junit.model.RetrievedPassage;

/** Finds the passages of the handbook for a question, best first. */
@FunctionalInterface
public interface Retriever {

    /** At most {@code k} passages, best first, each with its id, text, retriever score and title. */
    List<RetrievedPassage> retrieve(String question, int k);
}
