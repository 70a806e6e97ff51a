package dev.agentarena.junit.engine.descriptor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.engine.config.DisplayNames;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.reporting.leaderboard.ScoreTally;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.ScoreLine;
import dev.agentarena.junit.engine.results.SinkText;
import dev.agentarena.junit.engine.results.ScoreSummary;

/**
 * The summary test of one score on one model and dataset ({@code arena.nodes=summary} or {@code failures}), registered
 * below the case container once its last case ran: it stands for the results that have no test of their own.
 *
 * <p>Its name (except under Surefire, where it is {@code <model>/<dataset>/<score>} alone, see {@link DisplayNames})
 * and its report entries carry the aggregate of every result of the score (score, 95% interval, counts, the lowest
 * cases with their reasons). Its outcome is the worst of the results it stands for: an error when one ended in
 * an error (the error is not a low score), failed when one scored low (passed, its name marked {@code (low)}, under
 * {@code arena.low-scores=report}, as a scorer test is), passed when one passed, skipped otherwise. In
 * {@code failures} mode the low scores and errors are tests of their own, so it passes.
 *
 * <p>Its unique id, {@code .../[scores:<score>]}, is stable: selecting it again (an IDE's rerun, Surefire's
 * {@code rerunFailingTestsCount}) runs its model's dataset again.
 */
final class ScoreSummaryDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    private final ScoreTally tally;
    private final ScoreSummary summary;
    private final String legacyName;
    private final boolean lowScoresFail;

    /**
     * @param legacyName {@code <model>/<dataset>/<score>}, unique within the class
     * @param names whether the display name is the legacy name alone (under Surefire, see {@link DisplayNames}), or
     *        the legacy name or the score alone followed by the aggregate
     * @param source the dataset file, or {@code null}
     * @param lowScoresFail whether a low score fails the test ({@code arena.low-scores})
     */
    ScoreSummaryDescriptor(UniqueId uniqueId, ScoreTally tally, String legacyName, DisplayNames names,
            TestSource source, boolean lowScoresFail) {
        this(uniqueId, tally, tally.summary(), legacyName, names, source, lowScoresFail);
    }

    private ScoreSummaryDescriptor(UniqueId uniqueId, ScoreTally tally, ScoreSummary summary, String legacyName,
            DisplayNames names, TestSource source, boolean lowScoresFail) {
        super(uniqueId, names.scored()
                ? displayName(names.full() ? legacyName : tally.scorer(), summary, outcome(tally), lowScoresFail)
                : SinkText.name(legacyName, 1000), source);
        this.tally = tally;
        this.summary = summary;
        // Surefire names the test in its XML after it: the case id comes from a dataset
        this.legacyName = SinkText.name(legacyName, 1000);
        this.lowScoresFail = lowScoresFail;
    }

    /**
     * {@code exact_match over 1,000,000 cases: 0.900 [0.899, 0.901] ✘ 900,000 passed, 100,000 scored low} ({@code (low)}
     * for ✘ when a low score does not fail the test). Display names are frozen once a test is registered, which is why
     * the summary is computed first.
     */
    static String displayName(String base, ScoreSummary summary, ResultStatus outcome, boolean lowScoresFail) {
        List<String> counts = new ArrayList<>();
        add(counts, summary.passed(), "passed");
        add(counts, summary.failed(), "scored low");
        add(counts, summary.errors(), summary.errors() == 1 ? "error" : "errors");
        add(counts, summary.notApplicable(), "not applicable");
        add(counts, summary.notRun(), "not run");
        String cases = summary.cases() == 1 ? "1 case" : ScoreTally.count(summary.cases()) + " cases";
        return ScoreLine.sanitize(base, 160) + " over " + cases + ": " + summary.scoreText() + " "
                + (outcome == null ? "–" : ScoreLine.mark(outcome, lowScoresFail))
                + (counts.isEmpty() ? "" : " " + String.join(", ", counts));
    }

    private static void add(List<String> counts, long count, String what) {
        if (count > 0) {
            counts.add(ScoreTally.count(count) + " " + what);
        }
    }

    /** The worst status of the results the test stands for, which its name shows; {@code null} for none scored. */
    private static ResultStatus outcome(ScoreTally tally) {
        if (tally.reportingError() != null || tally.stoodFor(ResultStatus.ERROR) > 0) {
            return ResultStatus.ERROR;
        }
        if (tally.stoodFor(ResultStatus.FAILED) > 0) {
            return ResultStatus.FAILED;
        }
        return tally.stoodFor(ResultStatus.PASSED) > 0 ? ResultStatus.PASSED : null;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    @Override
    public String getLegacyReportingName() {
        return legacyName;
    }

    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor) {
        context.junit().reportingEntryPublished(this, ReportEntry.from(entries()));
        context.run().listeners().summaryStarted(summary.eval(), "scores of " + summary.scorer() + " on "
                + summary.model());
        context.run().listeners().scoreSummaryReported(summary);
        RuntimeException reportingError = tally.reportingError();
        if (reportingError != null) {
            throw reportingError;
        }
        String subject = summary.scorer() + " on " + summary.model() + " (" + summary.dataset() + ")";
        long errors = tally.stoodFor(ResultStatus.ERROR);
        long failed = tally.stoodFor(ResultStatus.FAILED);
        if (errors > 0) {
            throw new CaseErrorsException(ScoreTally.count(errors) + " of " + ScoreTally.count(summary.results())
                    + " results of " + subject + " ended in an error, kept out of the score (errors of the model "
                    + "call, the task, a hook or the scorer, not low scores)"
                    + (failed > 0 ? "; " + ScoreTally.count(failed) + " more scored low" : "") + ". First: "
                    + String.join("; ", summary.firstErrors()));
        }
        if (failed > 0 && lowScoresFail) {
            context.run().noteLowScoreFailedByDefault().ifPresent(warning -> context.junit()
                    .reportingEntryPublished(this, ReportEntry.from("hint", warning)));
            throw new AssertionFailedError(ScoreTally.count(failed) + " of " + ScoreTally.count(summary.results())
                    + " results of " + subject + " scored low; score " + summary.scoreText() + ". Lowest: "
                    + String.join("; ", summary.lowest()));
        }
        if (tally.stoodFor(ResultStatus.PASSED) == 0 && failed == 0) {
            throw new TestAbortedException("no result of " + subject + " that this test stands for was scored: "
                    + ScoreTally.count(tally.stoodFor(ResultStatus.NOT_APPLICABLE)) + " not applicable, "
                    + ScoreTally.count(tally.stoodFor(ResultStatus.NOT_RUN)) + " not run");
        }
        return context;
    }

    private Map<String, String> entries() {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("eval", nonBlank(summary.eval()));
        entries.put("model", nonBlank(summary.model()));
        entries.put("dataset", nonBlank(summary.dataset()));
        entries.put("scorer", nonBlank(summary.scorer()));
        entries.put("cases", String.valueOf(summary.cases()));
        entries.put("scored_cases", String.valueOf(summary.scoredCases()));
        entries.put("score", summary.scoreText());
        entries.put("interval", summary.interval());
        entries.put("passed", String.valueOf(summary.passed()));
        entries.put("failed", String.valueOf(summary.failed()));
        entries.put("errors", String.valueOf(summary.errors()));
        entries.put("not_applicable", String.valueOf(summary.notApplicable()));
        entries.put("not_run", String.valueOf(summary.notRun()));
        for (int i = 0; i < summary.lowest().size(); i++) {
            entries.put("lowest." + (i + 1), nonBlank(summary.lowest().get(i)));
        }
        for (int i = 0; i < summary.firstErrors().size(); i++) {
            entries.put("error." + (i + 1), nonBlank(summary.firstErrors().get(i)));
        }
        return entries;
    }

    private static String nonBlank(String text) {
        return text == null || text.isBlank() || text.trim().isEmpty() ? "-" : text;
    }
}
