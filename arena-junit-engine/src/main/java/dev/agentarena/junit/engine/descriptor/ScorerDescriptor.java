package dev.agentarena.junit.engine.descriptor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.engine.config.DisplayNames;
import dev.agentarena.junit.engine.evaluation.ScorerResult;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.results.Decimals;
import dev.agentarena.junit.engine.results.ReportedError;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ScoreLine;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * One scorer's verdict on one case: the test that IDEs, Surefire and Allure show. It hands its result to the run's
 * listeners, publishes it as report entries, and ends with the outcome its status maps to.
 *
 * <p>Passed is successful; failed is an {@link AssertionFailedError} with the reference as expected and the output as
 * actual (successful under {@code arena.low-scores=report}, the low score staying in the results, and in the name
 * outside Surefire); not applicable and not run are aborted; an error of the task or the scorer is thrown as it is, so
 * reports show it as an error, never as a low score.
 */
final class ScorerDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    private static final StackTraceElement[] NO_FRAMES = new StackTraceElement[0];

    // Released once reported: a run of a million cases keeps every node until it ends, and the result holds the
    // case's output, transcript and metrics.
    private ScorerResult result;
    private final String legacyName;
    private final Set<TestTag> tags;

    /**
     * @param legacyName {@code <model>/<dataset>[<case>]/<segment>}, unique within the class
     * @param segment the scorer's segment of the unique id, which names the test under its case
     * @param names how the display name is made (see {@link DisplayNames})
     * @param lowScoresFail whether a low score fails its test ({@code arena.low-scores}); when it does not, the name
     *        marks a low score {@value ScoreLine#REPORTED_LOW}, not ✘
     */
    ScorerDescriptor(UniqueId uniqueId, ScorerResult result, String legacyName, String segment, DisplayNames names,
            TestSource source, Set<TestTag> tags, boolean lowScoresFail) {
        this(uniqueId, result, SinkText.name(legacyName, 1000), legacyName, segment, names, source, tags,
                lowScoresFail);
    }

    /** @param safeLegacyName the legacy name made safe once ({@link SinkText#name}): Surefire names the test after it */
    private ScorerDescriptor(UniqueId uniqueId, ScorerResult result, String safeLegacyName, String legacyName,
            String segment, DisplayNames names, TestSource source, Set<TestTag> tags, boolean lowScoresFail) {
        super(uniqueId, displayName(result.record(), safeLegacyName, legacyName, segment, names, lowScoresFail),
                source);
        this.result = result;
        this.legacyName = safeLegacyName;
        this.tags = tags;
    }

    /**
     * The legacy name alone ({@link DisplayNames#STABLE}: the same whatever the result, so that Surefire knows a
     * rerun for the test it reruns), or the legacy name or segment followed by score, mark and reason.
     */
    private static String displayName(ResultRecord record, String safeLegacyName, String legacyName, String segment,
            DisplayNames names, boolean lowScoresFail) {
        if (!names.scored()) {
            return safeLegacyName;
        }
        return ScoreLine.displayName(names.full() ? legacyName : segment, record.score(), record.status(),
                record.reason(), lowScoresFail);
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    @Override
    public Set<TestTag> getTags() {
        return tags;
    }

    @Override
    public String getLegacyReportingName() {
        return legacyName;
    }

    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor)
            throws Exception {
        ScorerResult reported = result;
        result = null;
        ResultRecord record = reported.record();
        context.junit().reportingEntryPublished(this, ReportEntry.from(reportEntries(record, reported.transcript())));
        context.run().listeners().resultReported(record, reported.transcript());
        switch (record.status()) {
            case PASSED:
                return context;
            case FAILED:
                if (!context.lowScores().failTests()) {
                    return context;
                }
                context.run().noteLowScoreFailedByDefault().ifPresent(warning -> context.junit()
                        .reportingEntryPublished(this, ReportEntry.from("hint", warning)));
                throw verdict(new AssertionFailedError(ScoreLine.lowScoreMessage(record),
                        reported.transcript().reference(), record.output()));
            case NOT_APPLICABLE:
                throw verdict(new TestAbortedException(SinkText.message(record.reason())));
            case NOT_RUN:
                throw verdict(new TestAbortedException(SinkText.message("not run: " + record.reason())));
            default:
                throw asException(reported.error(), record);
        }
    }

    /**
     * A low score or an abstention is a verdict on the case, not a failure of code: its message says everything, and
     * the frames of the engine that threw it say nothing about the case. Without them, a run with thousands of low
     * scores does not pay for thousands of stack traces to be pruned by the launcher, sent by Surefire and written to
     * its XML, and reports show the message alone. Errors keep their stack traces.
     */
    private static <T extends Throwable> T verdict(T throwable) {
        throwable.setStackTrace(NO_FRAMES);
        return throwable;
    }

    /** How long one step's line of the trajectory entry may be. */
    private static final int TRAJECTORY_LINE = 300;

    private static Map<String, String> reportEntries(ResultRecord record, CaseTranscript transcript) {
        // sized for the usual entries and a few metrics without a rehash, once per test
        Map<String, String> entries = new LinkedHashMap<>(32);
        entries.put("eval", nonBlank(record.eval()));
        entries.put("model", nonBlank(record.model()));
        entries.put("case", nonBlank(record.caseId()));
        entries.put("scorer", nonBlank(record.scorer()));
        entries.put("scorer_version", nonBlank(record.scorerVersion()));
        entries.put("status", record.status().jsonName());
        entries.put("score", ScoreLine.format(record.score()));
        entries.put("passed", String.valueOf(record.passed()));
        entries.put("reason", nonBlank(record.reason()));
        record.metrics().forEach((name, value) -> entries.put("metric." + name,
                Decimals.fixed(value, 6)));
        if (record.latencyMs() != null) {
            entries.put("latency_ms", String.valueOf(record.latencyMs()));
        }
        entries.put("tokens_in", String.valueOf(record.tokensIn()));
        entries.put("tokens_out", String.valueOf(record.tokensOut()));
        if (record.tokensCached() > 0) {
            entries.put("tokens_cached", String.valueOf(record.tokensCached()));
        }
        entries.put("cost_usd", Decimals.fixed(record.costUsd(), 6));
        if (record.error() != null) {
            entries.put("error", nonBlank(record.error()));
        }
        if (transcript.detail().get("turn_scores") instanceof List<?> turns) {
            // a scorer that graded a conversation turn by turn: each turn's score, the reason has why
            entries.put("turn_scores", nonBlank(SinkText.message(turnScores(turns))));
        }
        if (transcript.trajectory() != null) {
            // one line per step; the steps themselves are in results.jsonl
            entries.put("trajectory", nonBlank(SinkText.message(transcript.trajectory().summary(TRAJECTORY_LINE))));
        }
        return entries;
    }

    /** {@code 1: 1.00 ✔, 2: 0.00 ✘, 3: n/a}: the turn scores of a per-turn scorer's detail. */
    private static String turnScores(List<?> turns) {
        List<String> shown = new ArrayList<>();
        for (Object turn : turns) {
            if (turn instanceof Map<?, ?> entry && entry.get("turn") instanceof Number index) {
                Object score = entry.get("score");
                Object passed = entry.get("passed");
                shown.add((index.intValue() + 1) + ": " + (score instanceof Number number
                        ? ScoreLine.format(number.doubleValue()) + (Boolean.TRUE.equals(passed) ? " ✔"
                                : Boolean.FALSE.equals(passed) ? " ✘" : "")
                        : "n/a"));
            }
        }
        return String.join(", ", shown);
    }

    /**
     * The text, or "-" where JUnit would refuse it as a report entry value: JUnit's blank also covers control
     * characters ({@code trim()}), and a refused entry would fail the test before its result is recorded.
     */
    private static String nonBlank(String text) {
        return text == null || text.isBlank() || text.trim().isEmpty() ? "-" : text;
    }

    /**
     * The error, or, when a message of its chain holds what a report or a terminal cannot take (a control character,
     * U+FFFE, a forged {@code [arena]} line: a custom scorer may quote the output), a copy with every message made
     * safe ({@link SinkText#message}) under the original type's name.
     */
    private static Throwable safeForReports(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!SinkText.isSafeMessage(t.getMessage())) {
                return ReportedError.rewrite(error, SinkText::message);
            }
        }
        return error;
    }

    /**
     * The error as this test's outcome. A {@code VirtualMachineError} of user code (an {@code OutOfMemoryError}, a
     * {@code StackOverflowError}) is over by now, but JUnit would take it for the whole JVM's and end the run: it is
     * wrapped, naming it and the case.
     */
    private static Exception asException(Throwable thrown, ResultRecord record) {
        Throwable error = safeForReports(thrown);
        if (error instanceof Exception) {
            return (Exception) error;
        }
        if (error instanceof VirtualMachineError || !(error instanceof Error)) {
            return new IllegalStateException(record.error() + " (in case '" + record.caseId() + "' on "
                    + record.model() + ")", error);
        }
        throw (Error) error;
    }
}
