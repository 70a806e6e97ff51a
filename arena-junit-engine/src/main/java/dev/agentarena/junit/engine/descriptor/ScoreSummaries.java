package dev.agentarena.junit.engine.descriptor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.engine.support.hierarchical.Node.DynamicTestExecutor;

import dev.agentarena.junit.engine.config.NodeMode;
import dev.agentarena.junit.engine.datasets.DatasetLocation;
import dev.agentarena.junit.engine.datasets.EditableSource;
import dev.agentarena.junit.engine.evaluation.CaseOutcome;
import dev.agentarena.junit.engine.evaluation.ScorerResult;
import dev.agentarena.junit.engine.reporting.RunListener;
import dev.agentarena.junit.engine.reporting.leaderboard.RepeatReducer;
import dev.agentarena.junit.engine.reporting.leaderboard.ScoreTally;

/**
 * The summary tests of one case container when cases have no tests of their own ({@link NodeMode#SUMMARY},
 * {@link NodeMode#FAILURES}): hands each result without a test to the run's outputs, tallies every result per score,
 * and once the container's last case ran registers one {@link ScoreSummaryDescriptor} per score, in the order the
 * scores first appeared.
 */
final class ScoreSummaries {

    private final CaseContainerDescriptor container;
    private final CaseNodes nodes;
    private final RunListener listeners;
    private final RepeatReducer reducer;
    private final String eval;
    private final boolean lowScoresFail;
    private final Map<String, ScoreTally> tallies = new LinkedHashMap<>();
    private TestSource source;
    private ScoreTally lastTally;
    private final List<ScorerResult> selected = new ArrayList<>();
    private final List<String> scores = new ArrayList<>();
    /**
     * Whether every case and scorer of the container is selected (no unique-id selection); the selection is complete
     * once discovery ends. Then a result's selection depends on its score's name alone: the last one asked, and what
     * it got.
     */
    private final boolean everyCase;
    private String lastScore;
    private boolean lastScoreIncluded;

    /**
     * @param lowScoresFail whether a low score fails its test ({@code arena.low-scores}), which the summary tests
     *        follow
     */
    ScoreSummaries(CaseContainerDescriptor container, CaseNodes nodes, RunListener listeners, RepeatReducer reducer,
            String eval, boolean lowScoresFail) {
        this.container = container;
        this.nodes = nodes;
        this.listeners = listeners;
        this.reducer = reducer;
        this.eval = eval;
        this.lowScoresFail = lowScoresFail;
        this.everyCase = container.selection().isAll();
    }

    /**
     * Tallies a case's selected results and reports those without a test of their own: score by score, in the order
     * the scores first appear in the case, each score's results in repeat order.
     *
     * @return whether any selected result of the case gets a test of its own (then the case gets a node)
     */
    boolean add(List<CaseOutcome> evaluated) {
        if (source == null) {
            source = datasetFile(evaluated);
        }
        // the case's objects come from the call pool's core: each is a cache miss here, met one after the other, and
        // a result is read through its outcome's own field rather than through its list, one miss fewer
        int repeatCount = evaluated.size();
        if (repeatCount == 1) {
            CaseOutcome outcome = evaluated.get(0);
            if (outcome.resultCount() == 1) {
                // one scorer, one repeat (most evals): the case's one result, without the lists of the general case
                ScorerResult result = outcome.result(0);
                String score = result.record().scorer();
                if (!includes(outcome, score, 1)) {
                    return false;
                }
                ScoreTally tally = tally(score);
                boolean ownTest = report(result, tally);
                tally.endCase();
                return ownTest;
            }
        }
        // the selected results and their scores, kept between cases: nothing is allocated per case or result
        selected.clear();
        scores.clear();
        for (int r = 0; r < repeatCount; r++) {
            CaseOutcome outcome = evaluated.get(r);
            int resultCount = outcome.resultCount();
            for (int k = 0; k < resultCount; k++) {
                ScorerResult result = outcome.result(k);
                String score = result.record().scorer();
                if (includes(outcome, score, repeatCount)) {
                    selected.add(result);
                    if (!scores.contains(score)) {
                        scores.add(score);
                    }
                }
            }
        }
        boolean anyOwnTest = false;
        for (int s = 0; s < scores.size(); s++) {
            String score = scores.get(s);
            ScoreTally tally = tally(score);
            for (int k = 0; k < selected.size(); k++) {
                ScorerResult result = selected.get(k);
                if (scores.size() > 1 && !score.equals(result.record().scorer())) {
                    continue;
                }
                anyOwnTest |= report(result, tally);
            }
            tally.endCase();
        }
        return anyOwnTest;
    }

    /**
     * Whether the selection includes a score's result of a repeat of a case. When every case and scorer of the
     * container is selected (no unique-id selection: the usual run), that depends on the score's name alone, which
     * is asked once per name rather than per result.
     */
    private boolean includes(CaseOutcome outcome, String score, int repeatCount) {
        if (!everyCase) {
            return nodes.includesScorer(outcome.caseId(), score, outcome.repeat(), repeatCount);
        }
        if (score != lastScore && !score.equals(lastScore)) {
            lastScoreIncluded = nodes.includesScorer(outcome.caseId(), score, outcome.repeat(), repeatCount);
            lastScore = score;
        }
        return lastScoreIncluded;
    }

    /** Tallies a selected result, reporting it when it has no test of its own; whether it has one. */
    private boolean report(ScorerResult result, ScoreTally tally) {
        boolean ownTest = nodes.ownTest(result);
        if (!ownTest) {
            try {
                listeners.resultWithoutTest(result.record(), result.transcript());
            }
            catch (RuntimeException e) {
                // one output's problem must not stop the container's other cases: the summary test fails
                tally.reportingFailed(e);
            }
        }
        tally.add(result.record(), !ownTest);
        return ownTest;
    }

    /** The score's tally, a new one when the score is new to the container (the last one asked for is at hand). */
    private ScoreTally tally(String score) {
        if (lastTally != null && lastTally.scorer().equals(score)) {
            return lastTally;
        }
        lastTally = tallies.computeIfAbsent(score, name -> new ScoreTally(eval, container.modelKey(),
                container.cases().name(), name, reducer));
        return lastTally;
    }

    /** Registers and runs the summary tests, one per score. */
    void register(DynamicTestExecutor executor) {
        for (ScoreTally tally : tallies.values()) {
            String legacyName = container.modelKey() + "/" + container.cases().name() + "/" + tally.scorer();
            ScoreSummaryDescriptor test = new ScoreSummaryDescriptor(
                    ArenaUniqueIds.scores(container.getUniqueId(), tally.scorer()), tally, legacyName,
                    nodes.displayNames(), source, lowScoresFail);
            container.addChild(test);
            executor.execute(test);
        }
    }

    /** The dataset file, for IDEs to open from a summary test; none for a dataset method (see {@link CaseNodes}). */
    private static TestSource datasetFile(List<CaseOutcome> evaluated) {
        DatasetLocation location = evaluated.get(0).row().location().orElse(null);
        if (location == null || location.file().isEmpty()) {
            return null;
        }
        return FileSource.from(new EditableSource().of(location.file().get()).toFile());
    }
}
