package dev.agentarena.junit.engine.execution;

import java.util.LinkedHashMap;
import java.util.Locale;
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

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.ResultRecord;
import dev.agentarena.junit.engine.reporting.ScoreLine;
import dev.agentarena.junit.engine.reporting.allure.AllureReporting;
import dev.agentarena.junit.engine.reporting.allure.CaseTranscript;

/**
 * One scorer's verdict on one case: the test that IDEs, Surefire and Allure show.
 *
 * <p>Passed is successful; failed is an {@link AssertionFailedError} with the reference as expected and the output as
 * actual; not applicable is aborted; an error of the task or the scorer is thrown as it is, so reports show it as an
 * error, never as a low score.
 */
final class ScorerDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    static final String SEGMENT = "scorer";

    // The outcome, score and record are released once reported: a run of a million cases keeps every node until it
    // ends, and they hold the case, its output and its metrics.
    private CaseOutcome outcome;
    private ScoreOutcome score;
    private final String legacyName;
    private final Set<TestTag> tags;
    private ResultRecord record;

    /**
     * @param displayBase what the display name starts with: the legacy name, or just the scorer's segment (see
     *        {@link DisplayNames})
     */
    ScorerDescriptor(UniqueId uniqueId, CaseOutcome outcome, ScoreOutcome score, String legacyName,
            String displayBase, TestSource source, Set<TestTag> tags, CaseNodes nodes) {
        super(uniqueId, ScoreLine.displayName(displayBase, score.score(), score.status(), score.reason()), source);
        this.outcome = outcome;
        this.score = score;
        this.legacyName = legacyName;
        this.tags = tags;
        this.record = record(nodes);
    }

    private ResultRecord record(CaseNodes nodes) {
        EvalCase evalCase = outcome.evalCase();
        Map<String, Double> metrics = new LinkedHashMap<>();
        if (outcome.taskOutput != null) {
            metrics.putAll(outcome.taskOutput.metrics());
        }
        if (score.result() != null) {
            metrics.putAll(score.result().metrics());
        }
        CallUsage usage = outcome.usage;
        return new ResultRecord(nodes.eval().definition().name(), outcome.modelKey, nodes.datasetName(),
                outcome.caseId(), score.name(), score.version(), score.registryName(), outcome.repeat, score.score(),
                score.error() == null && score.result() != null ? score.result().passed() : null, score.status(),
                score.reason(), metrics, usage.latencyMs(), usage.tokensIn(), usage.tokensOut(), usage.costUsd(),
                usage.cached(), evalCase == null ? 1.0 : evalCase.weight(), CaseNodes.tagNames(evalCase),
                score.error() == null ? null : describe(score.error()), outcome.output);
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
        try {
            return report(context);
        }
        finally {
            outcome = null;
            score = null;
            record = null;
        }
    }

    private ArenaExecutionContext report(ArenaExecutionContext context) throws Exception {
        RunServices run = context.run();
        run.listener().reportingEntryPublished(this, ReportEntry.from(reportEntries()));
        System.out.println(ScoreLine.of(record));
        run.record(record);
        AllureReporting.report(record, new CaseTranscript(outcome.prompt, outcome.rawOutput, referenceText(),
                score.result() == null ? null : score.result().detail()));
        switch (record.status()) {
            case ResultRecord.PASSED:
                return context;
            case ResultRecord.FAILED:
                throw new AssertionFailedError(failureMessage(), referenceText(), outcome.output);
            case ResultRecord.NOT_APPLICABLE:
                throw new TestAbortedException(score.result() == null ? score.reason()
                        : "unscored (" + ScoreLine.format(score.score()) + "): " + score.reason());
            case ResultRecord.NOT_RUN:
                throw new TestAbortedException("not run: " + score.reason());
            default:
                throw asException(score.error());
        }
    }

    private String failureMessage() {
        return score.name() + " scored " + ScoreLine.format(score.score()) + " for case '" + outcome.caseId() + "' on "
                + outcome.modelKey + (record.reason().isBlank() ? "" : ": " + record.reason());
    }

    private String referenceText() {
        EvalCase evalCase = outcome.evalCase();
        return evalCase == null ? "" : Json.text(evalCase.reference());
    }

    private Map<String, String> reportEntries() {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("eval", nonBlank(record.eval()));
        entries.put("model", nonBlank(record.model()));
        entries.put("case", nonBlank(record.caseId()));
        entries.put("scorer", nonBlank(record.scorer()));
        entries.put("scorer_version", nonBlank(record.scorerVersion()));
        entries.put("status", record.status());
        entries.put("score", ScoreLine.format(record.score()));
        entries.put("passed", String.valueOf(record.passed()));
        entries.put("reason", nonBlank(record.reason()));
        record.metrics().forEach((name, value) -> entries.put("metric." + name,
                String.format(Locale.ROOT, "%.6f", value)));
        if (record.latencyMs() != null) {
            entries.put("latency_ms", String.valueOf(record.latencyMs()));
        }
        entries.put("tokens_in", String.valueOf(record.tokensIn()));
        entries.put("tokens_out", String.valueOf(record.tokensOut()));
        entries.put("cost_usd", String.format(Locale.ROOT, "%.6f", record.costUsd()));
        if (record.error() != null) {
            entries.put("error", nonBlank(record.error()));
        }
        return entries;
    }

    /**
     * The text, or "-" where JUnit would refuse it as a report entry value: JUnit's blank also covers control
     * characters ({@code trim()}), and a refused entry would fail the test before its result is recorded.
     */
    private static String nonBlank(String text) {
        return text == null || text.isBlank() || text.trim().isEmpty() ? "-" : text;
    }

    private static String describe(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static Exception asException(Throwable error) {
        if (error instanceof Exception) {
            return (Exception) error;
        }
        if (error instanceof Error) {
            throw (Error) error;
        }
        return new IllegalStateException(error);
    }
}
