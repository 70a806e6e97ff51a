package dev.agentarena.junit.engine.reporting.agreement;

import java.util.List;

import org.apiguardian.api.API;

/**
 * What one eval's human labels said of its scorers in one run: the agreement of each scorer that graded labelled
 * outputs, and the labels that no longer apply because the output changed since (stale), so that a reader knows how
 * much of the file still counts.
 *
 * @param eval the eval
 * @param labels how many labels the eval has
 * @param labelledOutputs how many outputs of the run a current label judged
 * @param stale how many outputs of the run have only a stale label (the output changed since it was labelled)
 * @param staleExamples the first few stale ones ({@code case on model (file:line)})
 * @param scorers the agreement of each scorer with pairs, by name
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public record EvalAgreement(String eval, int labels, int labelledOutputs, int stale, List<String> staleExamples,
        List<ScorerAgreement> scorers) {

    /** Freezes the lists. */
    public EvalAgreement {
        staleExamples = List.copyOf(staleExamples);
        scorers = List.copyOf(scorers);
    }

    /** What a reader should hear of stale labels, or {@code null} when none are. */
    public String staleWarning() {
        return stale == 0 ? null : eval + ": " + stale + " labelled output" + (stale == 1 ? " has" : "s have")
                + " changed since labelled (stale labels, not counted): " + String.join("; ", staleExamples)
                + (stale > staleExamples.size() ? "; ..." : "") + ". Export a new sheet (arena.labels.export) and "
                + "label them again";
    }
}
