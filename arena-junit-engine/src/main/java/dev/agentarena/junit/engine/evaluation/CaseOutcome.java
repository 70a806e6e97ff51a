package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.tracing.TraceSpan;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.TrajectoryRecord;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.ReportedError;
import dev.agentarena.junit.engine.results.ResultLineCodec;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * One repeat of one case on one model, ready to report: one {@link ScorerResult} per score, in scorer order, each its
 * results line, transcript and error. Built on the call pool by a {@link Builder}, off the reporting thread, then
 * handed back in dataset order with the case's other repeats (a case is the list of its repeats, in repeat order).
 *
 * <p>A result that met a problem every case shares is settled as it is handed back ({@link #settled}): until then its
 * outcome keeps what rebuilds it; no other outcome keeps anything of the case but its results.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseOutcome {

    /**
     * Which eval, model and dataset the case belongs to; the run's secrets, masked in every text that leaves it; and
     * how long a reason or error may be before it is cut ({@code arena.output.text-limit}, 0 for no limit). The
     * masked names of the eval, model and dataset are worked out once here, not once per result.
     */
    static final class Origin {

        private final String eval;
        private final String model;
        private final String dataset;
        private final SecretRedactor redactor;
        private final int textLimit;
        private final String maskedEval;
        private final String maskedModel;
        private final String maskedDataset;
        /**
         * The masked texts of names that many results share (a scorer's name, version and registry name, a tag), by
         * the name: each masked once, not once per result (three searches of it per secret). At most
         * {@link #MAX_NAMES}, so that names made per case (a score name, a tag of each case's own) cannot fill it.
         */
        private final Map<String, String> maskedNames = new ConcurrentHashMap<>();

        Origin(String eval, String model, String dataset, SecretRedactor redactor, int textLimit) {
            this.eval = eval;
            this.model = model;
            this.dataset = dataset;
            this.redactor = redactor;
            this.textLimit = textLimit;
            this.maskedEval = redactor.redact(eval);
            this.maskedModel = redactor.redact(model);
            this.maskedDataset = redactor.redact(dataset);
        }

        /** How many masked names {@link #maskedName} keeps. */
        static final int MAX_NAMES = 1024;

        /**
         * A name masked, as {@link SecretRedactor#redact} masks it: the same text for the same name, so a name met
         * before is looked up rather than searched again.
         */
        String maskedName(String name) {
            if (name == null || redactor.isEmpty()) {
                return name;
            }
            String masked = maskedNames.get(name);
            if (masked == null) {
                masked = redactor.redact(name);
                if (maskedNames.size() < MAX_NAMES) {
                    maskedNames.put(name, masked);
                }
            }
            return masked;
        }

        /** Without a limit on texts. */
        Origin(String eval, String model, String dataset, SecretRedactor redactor) {
            this(eval, model, dataset, redactor, 0);
        }

        String eval() {
            return eval;
        }

        String model() {
            return model;
        }

        String dataset() {
            return dataset;
        }

        SecretRedactor redactor() {
            return redactor;
        }

        int textLimit() {
            return textLimit;
        }
    }

    private final DatasetRow row;
    private final int repeat;
    /** The output the scorers graded, unmasked, or {@code null} when the task failed: what the arena compares. */
    private final String scoredOutput;
    private final List<ScorerResult> results;
    /** The first result, and how many there are: one object away for the reporting thread (see {@link #result}). */
    private final ScorerResult firstResult;
    private final int resultCount;
    /** What settles its results that met a shared problem; {@code null} for nearly every outcome, which has none. */
    private final Builder unsettled;

    private CaseOutcome(DatasetRow row, int repeat, String scoredOutput, List<ScorerResult> results,
            Builder unsettled) {
        this.row = row;
        this.repeat = repeat;
        this.scoredOutput = scoredOutput;
        this.results = results;
        this.resultCount = results.size();
        this.firstResult = resultCount == 0 ? null : results.get(0);
        this.unsettled = unsettled;
    }

    /**
     * Builds one repeat's outcome: the case's texts masked once, then each score's result as it is added. Every text
     * that leaves the case (results line, test name and failure, report entries, console, Allure) is built here, so
     * the run's secrets are masked once, whatever produced the text.
     */
    static final class Builder {

        private final Origin origin;
        private final DatasetRow row;
        private final int repeat;
        private final String output;
        private final TaskOutput taskOutput;
        private final CallUsage usage;
        private final EvalCase evalCase;
        private final String reference;
        private final String sentPrompt;
        private final String raw;
        private final String maskedOutput;
        private final Map<String, CaseTranscript.WholeText> wholeTrajectory;
        private final TrajectoryRecord steps;
        /** The retrieved passages as they leave the case: masked, cut; empty for nearly every case. */
        private final List<RetrievedPassage> retrieved;
        /** The case's spans as they leave the case: masked, cut; empty for nearly every case. */
        private final List<TraceSpan> spans;
        private final List<ScorerResult> results = new ArrayList<>(1);
        /** Each result's score name, scorer version and registry name, three entries a result, unmasked. */
        private final List<String> keys = new ArrayList<>(3);
        /** The results that met a shared problem, by index; {@code null} while there is none. */
        private Map<Integer, SharedProblems.Pending> pending;

        /**
         * @param rawOutput the task's output, {@code null} when the task failed
         * @param output the output the scorers graded (the raw output unless a {@code @PostProcess} hook changed it)
         */
        Builder(Origin origin, DatasetRow row, int repeat, String prompt, String rawOutput, String output,
                TaskOutput taskOutput, CallUsage usage, Trajectory trajectory) {
            this.origin = origin;
            this.row = row;
            this.repeat = repeat;
            this.output = output;
            this.taskOutput = taskOutput;
            this.usage = usage;
            this.evalCase = row.evalCase().orElse(null);
            SecretRedactor redactor = origin.redactor();
            this.reference = evalCase == null ? "" : redactor.redact(Json.text(evalCase.reference()));
            this.sentPrompt = redactor.redact(prompt);
            this.raw = redactor.redact(rawOutput);
            // the same text unless a @PostProcess hook changed it: masked once
            this.maskedOutput = output == rawOutput ? raw : redactor.redact(output);
            Map<String, CaseTranscript.WholeText> whole = Map.of();
            TrajectoryRecord recorded = null;
            if (trajectory != null && TrajectoryTexts.isAgentic(trajectory)) {
                // the file a cut trajectory goes to is named only for a trajectory there is (most cases have none)
                whole = new LinkedHashMap<>();
                recorded = TrajectoryTexts.of(trajectory, redactor, origin.textLimit(), LongTexts.caseFile(
                        origin.eval(), origin.model(), origin.dataset(), row.caseId(), repeat, "trajectory.json"), whole);
            }
            List<RetrievedPassage> passages = taskOutput == null ? List.of() : taskOutput.retrieved();
            if (!passages.isEmpty()) {
                whole = whole.isEmpty() ? new LinkedHashMap<>() : whole;
                passages = retrieved(passages, redactor, origin.textLimit(), LongTexts.caseFile(origin.eval(),
                        origin.model(), origin.dataset(), row.caseId(), repeat, "retrieved.json"), whole);
            }
            List<TraceSpan> caseSpans = taskOutput == null ? List.of() : taskOutput.spans();
            if (!caseSpans.isEmpty()) {
                whole = whole.isEmpty() ? new LinkedHashMap<>() : whole;
                caseSpans = spans(caseSpans, redactor, origin.textLimit(), LongTexts.caseFile(origin.eval(),
                        origin.model(), origin.dataset(), row.caseId(), repeat, "spans.json"), whole);
            }
            this.wholeTrajectory = whole;
            this.steps = recorded;
            this.retrieved = passages;
            this.spans = caseSpans;
        }

        /** How many spans a result shows at most; the whole list is kept beside it. */
        static final int SHOWN_SPANS = 200;

        /**
         * The spans masked (names, status messages, attributes and events), the first {@value #SHOWN_SPANS} of them,
         * their names and text attributes cut over the limit; all of them kept whole, under {@code spans}, when one
         * was cut or left out.
         */
        private static List<TraceSpan> spans(List<TraceSpan> spans, SecretRedactor redactor, int limit, String file,
                Map<String, CaseTranscript.WholeText> whole) {
            List<TraceSpan> masked = new ArrayList<>(spans.size());
            List<TraceSpan> shown = new ArrayList<>(Math.min(spans.size(), SHOWN_SPANS));
            boolean[] cutAny = {spans.size() > SHOWN_SPANS};
            for (TraceSpan span : spans) {
                TraceSpan one = redactor.isEmpty() ? span : new TraceSpan(span.traceId(), span.spanId(),
                        span.parentSpanId(), redactor.redact(span.name()), span.kind(), span.startEpochNanos(),
                        span.endEpochNanos(), span.status(), redactor.redact(span.statusMessage()),
                        redactor.redactMap(span.attributes()), span.events().stream()
                                .map(event -> new TraceSpan.Event(redactor.redact(event.name()), event.epochNanos(),
                                        redactor.redactMap(event.attributes()))).toList());
                masked.add(one);
                if (shown.size() == SHOWN_SPANS) {
                    continue;
                }
                Map<String, Object> attributes = new LinkedHashMap<>(one.attributes());
                attributes.replaceAll((key, value) -> {
                    if (value instanceof String text && LongTexts.isLong(text, limit)) {
                        cutAny[0] = true;
                        return LongTexts.cut(text, limit, file);
                    }
                    return value;
                });
                boolean longName = LongTexts.isLong(one.name(), limit);
                cutAny[0] |= longName;
                shown.add(new TraceSpan(one.traceId(), one.spanId(), one.parentSpanId(),
                        longName ? LongTexts.cut(one.name(), limit, file) : one.name(), one.kind(),
                        one.startEpochNanos(), one.endEpochNanos(), one.status(), one.statusMessage(), attributes,
                        one.events()));
            }
            if (cutAny[0]) {
                whole.put(CaseTranscript.SPANS, new CaseTranscript.WholeText(file, ResultLineCodec.spansJson(masked)));
            }
            return shown;
        }

        /** How many retrieved passages a result shows at most; the whole list is kept beside it. */
        static final int SHOWN_PASSAGES = 100;

        /**
         * The passages masked (id, text, source), the first {@value #SHOWN_PASSAGES} of them, their texts cut over the
         * limit; all of them kept whole, under {@code retrieved}, when one was cut or left out.
         */
        private static List<RetrievedPassage> retrieved(List<RetrievedPassage> passages, SecretRedactor redactor,
                int limit, String file, Map<String, CaseTranscript.WholeText> whole) {
            List<RetrievedPassage> masked = new ArrayList<>(passages.size());
            List<RetrievedPassage> shown = new ArrayList<>(Math.min(passages.size(), SHOWN_PASSAGES));
            boolean cutAny = passages.size() > SHOWN_PASSAGES;
            for (RetrievedPassage passage : passages) {
                RetrievedPassage one = redactor.isEmpty() ? passage
                        : new RetrievedPassage(redactor.redact(passage.id()), redactor.redact(passage.text()),
                                passage.rank(), passage.score(), redactor.redactMap(passage.source()));
                masked.add(one);
                if (shown.size() == SHOWN_PASSAGES) {
                    continue;
                }
                if (LongTexts.isLong(one.text(), limit)) {
                    cutAny = true;
                    one = new RetrievedPassage(one.id(), LongTexts.cut(one.text(), limit, file), one.rank(),
                            one.score(), one.source());
                }
                shown.add(one);
            }
            if (cutAny) {
                whole.put(CaseTranscript.RETRIEVED, new CaseTranscript.WholeText(file,
                        ResultLineCodec.retrievedJson(masked)));
            }
            return shown;
        }

        /**
         * Adds what one scorer said of the output under one score name: a grade, an abstention ({@code result} and
         * {@code error} both {@code null}), or an error.
         *
         * @param keepsUnscoredScore whether an unscored result still shows its score: {@code manual}'s 0.5, "always
         *        0.5, unscored" by the spec, where every other unscored result is written without one
         */
        void add(String name, String version, String registryName, ScoreResult result, Throwable error,
                boolean keepsUnscoredScore) {
            keys.add(name);
            keys.add(version);
            keys.add(registryName);
            if (error instanceof SharedProblems.Pending shared) {
                if (pending == null) {
                    pending = new TreeMap<>();
                }
                pending.put(results.size(), shared);
            }
            results.add(result(name, version, registryName, result, error, keepsUnscoredScore));
        }

        /** Makes every result of that score name this error: the name was emitted twice. */
        void replaceWithError(String name, Throwable error) {
            for (int i = 0; i < results.size(); i++) {
                if (keys.get(3 * i).equals(name)) {
                    if (pending != null) {
                        pending.remove(i);
                    }
                    results.set(i, result(name, keys.get(3 * i + 1), keys.get(3 * i + 2), null, error, false));
                }
            }
        }

        boolean isEmpty() {
            return results.isEmpty();
        }

        CaseOutcome build() {
            boolean unsettled = pending != null && !pending.isEmpty();
            return new CaseOutcome(row, repeat, output, List.copyOf(results), unsettled ? this : null);
        }

        /** The results, those that met a shared problem settled as {@link CaseOutcome#settled} says. */
        private CaseOutcome settled(List<ScorerResult> built, SharedProblems problems) {
            List<ScorerResult> settled = new ArrayList<>(built);
            pending.forEach((index, shared) -> {
                String name = keys.get(3 * index);
                String where = "case '" + row.caseId() + "'" + (repeat > 0 ? " (repeat " + repeat + ")" : "") + " of "
                        + origin.dataset() + " on " + origin.model() + ", scorer '" + name + "'";
                Throwable problem = shared.problem().error();
                Throwable error = problems.firstReport(shared.problem().key(), where)
                        .<Throwable>map(first -> new SharedProblems.NotRun(problem.getMessage() + " (reported once, as"
                                + " the error of " + first + ")"))
                        .orElse(problem);
                settled.set(index, result(name, keys.get(3 * index + 1), keys.get(3 * index + 2), null, error, false));
            });
            return new CaseOutcome(row, repeat, output, List.copyOf(settled), null);
        }

        /** One score's result. */
        private ScorerResult result(String name, String version, String registryName, ScoreResult result,
                Throwable error, boolean keepsUnscoredScore) {
            SecretRedactor redactor = origin.redactor();
            String reason = redactor.redact(reason(result, error));
            Map<String, Object> detail = detail(result, error, redactor);
            if (error == null && !LongTexts.isLong(reason, origin.textLimit())) {
                // nearly every result: no error, nothing cut, so no whole text of its own to keep
                return new ScorerResult(record(name, version, registryName, result, null, keepsUnscoredScore, reason,
                        null), new CaseTranscript(sentPrompt, raw, reference, detail, wholeTrajectory, steps,
                        retrieved, spans), null);
            }
            return cutOrFailed(name, version, registryName, result, error, keepsUnscoredScore, reason, detail);
        }

        /**
         * The result of a score that failed or whose reason is over the limit: the error as its text and as the
         * thrown error, both masked, and each text cut over the limit, its whole text kept beside the trajectory's.
         * Out of {@link #result}, which nearly every result goes through without it.
         */
        private ScorerResult cutOrFailed(String name, String version, String registryName, ScoreResult result,
                Throwable error, boolean keepsUnscoredScore, String maskedReason, Map<String, Object> detail) {
            SecretRedactor redactor = origin.redactor();
            Map<String, CaseTranscript.WholeText> whole = new LinkedHashMap<>(wholeTrajectory);
            String reason = cutIfLong(name, "reason", maskedReason, whole);
            // not run is no error: its reason says why
            String errorText = error == null || error instanceof SharedProblems.NotRun ? null
                    : cutIfLong(name, "error", redactor.redact(describe(error)), whole);
            Throwable thrown = error == null || errorText == null ? null : redactor.redactError(error);
            if (whole.containsKey("error")) {
                String file = whole.get("error").file();
                thrown = ReportedError.rewrite(thrown, message -> LongTexts.isLong(message, origin.textLimit())
                        ? LongTexts.cut(message, origin.textLimit(), file) : message);
            }
            return new ScorerResult(record(name, version, registryName, result, error, keepsUnscoredScore, reason,
                    errorText), new CaseTranscript(sentPrompt, raw, reference, detail, whole, steps, retrieved, spans),
                    thrown);
        }

        /** The text, or, over the run's limit, its start naming where the whole text goes (kept in {@code whole}). */
        private String cutIfLong(String name, String what, String text, Map<String, CaseTranscript.WholeText> whole) {
            if (!LongTexts.isLong(text, origin.textLimit())) {
                return text;
            }
            String file = LongTexts.file(origin.eval(), origin.model(), origin.dataset(), row.caseId(), name, repeat,
                    what);
            whole.put(what, new CaseTranscript.WholeText(file, text));
            return LongTexts.cut(text, origin.textLimit(), file);
        }

        /** The result line of one score. */
        private ResultRecord record(String name, String version, String registryName, ScoreResult result,
                Throwable error, boolean keepsUnscoredScore, String reason, String errorText) {
            Map<String, Double> taskMetrics = taskOutput == null ? Map.of() : taskOutput.metrics();
            Map<String, Double> scoreMetrics = result == null ? Map.of() : result.metrics();
            Map<String, Double> metrics;
            if (taskMetrics.isEmpty() && scoreMetrics.isEmpty()) {
                // the common case: no metric, and no map to fill
                metrics = Map.of();
            }
            else {
                metrics = new LinkedHashMap<>(taskMetrics);
                metrics.putAll(scoreMetrics);
            }
            // results.jsonl writes an unscored verdict as "passed": null
            Boolean passed = error == null && result != null && result.isScored() ? result.passed() : null;
            // the score written with the result, or null: an error, and every not-applicable result alike (a null
            // return, ScoreResult.notApplicable and an unscored result, whose number grades nothing), but manual's
            // unscored 0.5, which its status keeps out of accuracy
            Double score = error != null || result == null || !(result.isScored() || keepsUnscoredScore) ? null
                    : result.score();
            SecretRedactor redactor = origin.redactor();
            List<String> tags;
            if (evalCase == null) {
                tags = List.of();
            }
            else if (redactor.isEmpty()) {
                // one copy: the record keeps an unmodifiable list as it is
                tags = List.copyOf(evalCase.tags());
            }
            else {
                tags = new ArrayList<>(evalCase.tags().size());
                for (String tag : evalCase.tags()) {
                    tags.add(origin.maskedName(tag));
                }
            }
            if (!redactor.isEmpty()) {
                // every field of the line, not only its texts: a metric's or score's name, a tag, the case id
                Map<String, Double> masked = new LinkedHashMap<>();
                metrics.forEach((metric, value) -> masked.merge(redactor.redact(metric), value, (a, b) -> b));
                metrics = masked;
            }
            return new ResultRecord(origin.maskedEval, origin.maskedModel, origin.maskedDataset,
                    redactor.redact(row.caseId()), origin.maskedName(name), origin.maskedName(version),
                    origin.maskedName(registryName), repeat, score, passed, status(result, error), reason, metrics,
                    usage.latencyMs(), usage.queueMs(), usage.tokensIn(), usage.tokensOut(), usage.tokensCached(),
                    usage.costUsd(), usage.cached(), evalCase == null ? 1.0 : evalCase.weight(), tags, errorText,
                    maskedOutput);
        }

        private static ResultStatus status(ScoreResult result, Throwable error) {
            if (error instanceof BudgetExhaustedException || error instanceof SharedProblems.NotRun) {
                return ResultStatus.NOT_RUN;
            }
            if (error != null) {
                return ResultStatus.ERROR;
            }
            if (result == null) {
                return ResultStatus.NOT_APPLICABLE;
            }
            return switch (result.verdict()) {
                case PASSED -> ResultStatus.PASSED;
                case FAILED -> ResultStatus.FAILED;
                case UNSCORED -> ResultStatus.NOT_APPLICABLE;
            };
        }

        private static String reason(ScoreResult result, Throwable error) {
            if (error != null) {
                return String.valueOf(error.getMessage());
            }
            if (result == null) {
                return "not applicable: the scorer returned no score for this case";
            }
            return result.reason();
        }

        /** The scorer's detail, its secrets masked; none when it gave none. */
        private static Map<String, Object> detail(ScoreResult result, Throwable error, SecretRedactor redactor) {
            if (result == null || error != null) {
                return null;
            }
            Map<String, Object> detail = result.detail();
            // the transcript keeps a copy of its own: masking nothing, no copy is needed here
            return detail.isEmpty() || redactor.isEmpty() ? detail : redactor.redactMap(detail);
        }

        private static String describe(Throwable error) {
            String message = error.getMessage();
            return error.getClass().getSimpleName() + (message == null ? "" : ": " + message);
        }
    }

    /** Whether a result met a problem every case shares, and waits to be {@link #settled} in dataset order. */
    boolean unsettled() {
        return unsettled != null;
    }

    /**
     * This outcome, handed back in dataset order, with every result that met a shared problem settled: the first
     * result of the eval to report the problem is its error, every later one is not run, naming the case that
     * reported it.
     */
    CaseOutcome settled(SharedProblems problems) {
        return unsettled == null ? this : unsettled.settled(results, problems);
    }

    /** A case's repeats, each {@link #settled settled}; the same list when none needs it. */
    static List<CaseOutcome> settled(List<CaseOutcome> repeats, SharedProblems problems) {
        boolean any = false;
        for (int i = 0; i < repeats.size(); i++) {
            any |= repeats.get(i).unsettled();
        }
        if (!any) {
            return repeats;
        }
        List<CaseOutcome> settled = new ArrayList<>(repeats.size());
        for (CaseOutcome outcome : repeats) {
            settled.add(outcome.settled(problems));
        }
        return List.copyOf(settled);
    }

    /** With repeats, how they went: {@code 3/5 passed, flaky}. */
    public static String repeatSummary(List<CaseOutcome> repeats) {
        return new CaseRepeats(repeats).summary();
    }

    /** With repeats, report entries of their spread per scorer. */
    public static Map<String, String> repeatEntries(List<CaseOutcome> repeats) {
        return new CaseRepeats(repeats).reportEntries();
    }

    /** The case id. */
    public String caseId() {
        return row.caseId();
    }

    /** The repeat index, from 0. */
    public int repeat() {
        return repeat;
    }

    /** One result per score, in scorer order. */
    public List<ScorerResult> results() {
        return results;
    }

    /** How many results: {@code results().size()}. */
    public int resultCount() {
        return resultCount;
    }

    /**
     * The result at this index: {@code results().get(index)}. The case's objects were made on the call pool, and the
     * thread that reports them meets each one first in its cache's misses, one after the other: the first result
     * (nearly every case's only one) is one object away instead of two.
     */
    public ScorerResult result(int index) {
        return index == 0 && firstResult != null ? firstResult : results.get(index);
    }

    /** The dataset row the case came from: where it is, and the case unless the row could not be read. */
    public DatasetRow row() {
        return row;
    }

    /** The case, or {@code null} when its row could not be read. */
    public EvalCase evalCase() {
        return row.evalCase().orElse(null);
    }

    /** The output the scorers graded, unmasked, or {@code null} when the task failed. */
    String scoredOutput() {
        return scoredOutput;
    }
}
