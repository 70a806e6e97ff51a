package dev.agentarena.samples.rag;

import java.util.List;
import java.util.Map;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.model.RetrievedPassage;

/** Recall at k over the relevant ids a case carries in its metadata (until the dataset's own truth fields). */
final class InterimTruth {

    private InterimTruth() {
    }

    @SuppressWarnings("unchecked")
    static double recallAt(int k, EvalCase testCase, List<RetrievedPassage> retrieved) {
        Map<String, Object> relevant = (Map<String, Object>) testCase.metadata().getOrDefault("relevant", Map.of());
        if (relevant.isEmpty()) {
            List<String> texts = (List<String>) testCase.metadata().getOrDefault("reference_passages", List.of());
            return texts.isEmpty() ? 0 : (double) texts.stream().filter(t -> retrieved.stream().limit(k)
                    .anyMatch(p -> p.text().contains(t) || t.contains(p.text()))).count() / texts.size();
        }
        long found = retrieved.stream().limit(k).map(RetrievedPassage::id).distinct()
                .filter(relevant::containsKey).count();
        return (double) found / relevant.size();
    }
}
