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
 * @param unmatched how many labels named a case and model no output of the run had (a case id mistyped or since
 *        removed, a model no longer run); counted only in a run of every case
 * @param unmatchedExamples the first few of them ({@code 'case' on model (file:line)})
 * @param partOfRun whether the run had only part of the eval's cases (a shard, a selection): its figures are of
 *        those cases only, and the whole run's come from the merge of the shards
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public record EvalAgreement(String eval, int labels, int labelledOutputs, int stale, List<String> staleExamples,
        List<ScorerAgreement> scorers, int unmatched, List<String> unmatchedExamples, boolean partOfRun) {

    /** Freezes the lists. */
    public EvalAgreement {
        staleExamples = List.copyOf(staleExamples);
        scorers = List.copyOf(scorers);
        unmatchedExamples = List.copyOf(unmatchedExamples);
    }

    /** Without labels that matched nothing (a run of part of the cases, which cannot tell). */
    public EvalAgreement(String eval, int labels, int labelledOutputs, int stale, List<String> staleExamples,
            List<ScorerAgreement> scorers) {
        this(eval, labels, labelledOutputs, stale, staleExamples, scorers, 0, List.of(), false);
    }

    /** What a reader of a part's figures should know, or {@code null} for a run of every case. */
    public String partNote() {
        return partOfRun ? "only part of the cases ran here (a shard or a selection): these figures are of its "
                + "cases; the whole run's are measured once the shards are merged (MergeShards)" : null;
    }

    /** What a reader should hear of labels that matched no output, or {@code null} when all did. */
    public String unmatchedWarning() {
        return unmatched == 0 ? null : eval + ": " + unmatched + " label" + (unmatched == 1 ? " names" : "s name")
                + " a case and model no output of this run had (not counted): " + String.join("; ",
                        unmatchedExamples) + (unmatched > unmatchedExamples.size() ? "; ..." : "") + ". Check the "
                + "case ids and model keys against the labelling sheet (arena.labels.export), or remove the labels "
                + "of cases no longer in the dataset";
    }

    /** What a reader should hear of stale labels, or {@code null} when none are. */
    public String staleWarning() {
        return stale == 0 ? null : eval + ": " + stale + " labelled output" + (stale == 1 ? " has" : "s have")
                + " changed since labelled (stale labels, not counted): " + String.join("; ", staleExamples)
                + (stale > staleExamples.size() ? "; ..." : "") + ". Export a new sheet (arena.labels.export) and "
                + "label them again";
    }
}
