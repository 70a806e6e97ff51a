package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.TrajectoryRecord;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.ReportedError;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * Everything that happened to one repeat of one case on one model: the prompt sent, the output, what the calls cost,
 * and what each scorer said. Computed on the call pool, off the reporting thread, then reported in dataset order.
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

    private final Origin origin;
    private final DatasetRow row;
    private final int repeat;
    private final String prompt;
    private final String rawOutput;
    private final String output;
    private final TaskOutput taskOutput;
    private final CallUsage usage;
    private final Trajectory trajectory;
    private final List<ScoreOutcome> scores;
    private final List<ScorerResult> results;
    /** The first result, and how many there are: one object away for the reporting thread (see {@link #result}). */
    private final ScorerResult firstResult;
    private final int resultCount;
    /** Whether a score met a problem every case shares: asked of every case as it is handed back. */
    private final boolean unsettled;

    CaseOutcome(Origin origin, DatasetRow row, int repeat, String prompt, String rawOutput, String output,
            TaskOutput taskOutput, CallUsage usage, List<ScoreOutcome> scores, Trajectory trajectory) {
        this.origin = origin;
        this.row = row;
        this.repeat = repeat;
        this.prompt = prompt;
        this.rawOutput = rawOutput;
        this.output = output;
        this.taskOutput = taskOutput;
        this.usage = usage;
        this.trajectory = trajectory;
        this.scores = List.copyOf(scores);
        this.unsettled = anyPending(this.scores);
        EvalCase evalCase = evalCase();
        SecretRedactor redactor = origin.redactor();
        // Every text that leaves the case (results line, test name and failure, report entries, console, Allure) is
        // built from these, so the run's secrets are masked once, here, whatever produced the text.
        String reference = evalCase == null ? "" : redactor.redact(Json.text(evalCase.reference()));
        String sentPrompt = redactor.redact(prompt);
        String raw = redactor.redact(rawOutput);
        // the same text unless a @PostProcess hook changed it: masked once
        String scoredOutput = output == rawOutput ? raw : redactor.redact(output);
        Map<String, CaseTranscript.WholeText> wholeTrajectory = Map.of();
        TrajectoryRecord steps = null;
        if (trajectory != null && TrajectoryTexts.isAgentic(trajectory)) {
            // the file a cut trajectory goes to is named only for a trajectory there is (most cases have none)
            wholeTrajectory = new LinkedHashMap<>();
            steps = TrajectoryTexts.of(trajectory, redactor, origin.textLimit(), LongTexts.caseFile(origin.eval(),
                    origin.model(), origin.dataset(), caseId(), repeat, "trajectory.json"), wholeTrajectory);
        }
        List<ScorerResult> built = new ArrayList<>(scores.size());
        for (ScoreOutcome score : scores) {
            String reason = redactor.redact(score.reason());
            if (score.error() == null && !LongTexts.isLong(reason, origin.textLimit())) {
                // nearly every result: no error, nothing cut, so no whole text of its own to keep
                built.add(new ScorerResult(
                        record(origin, evalCase, score, reason, null, scoredOutput, taskOutput, usage),
                        new CaseTranscript(sentPrompt, raw, reference, detail(score, redactor), wholeTrajectory,
                                steps),
                        null));
            }
            else {
                built.add(cutOrFailed(origin, evalCase, score, reason, scoredOutput, new CaseTranscript(sentPrompt,
                        raw, reference, detail(score, redactor), wholeTrajectory, steps)));
            }
        }
        this.results = List.copyOf(built);
        this.resultCount = this.results.size();
        this.firstResult = resultCount == 0 ? null : this.results.get(0);
    }

    /** The scorer's detail, its secrets masked; none when it gave none. */
    private static Map<String, Object> detail(ScoreOutcome score, SecretRedactor redactor) {
        if (score.result() == null) {
            return null;
        }
        Map<String, Object> detail = score.result().detail();
        // the transcript keeps a copy of its own: masking nothing, no copy is needed here
        return detail.isEmpty() || redactor.isEmpty() ? detail : redactor.redactMap(detail);
    }

    /**
     * The result of a score that failed or whose reason is over the limit: the error as its text and as the thrown
     * error, both masked, and each text cut over the limit, its whole text kept beside the trajectory's. Out of the
     * constructor's loop, which nearly every result goes through without it.
     */
    private ScorerResult cutOrFailed(Origin origin, EvalCase evalCase, ScoreOutcome score, String maskedReason,
            String scoredOutput, CaseTranscript plain) {
        SecretRedactor redactor = origin.redactor();
        Map<String, CaseTranscript.WholeText> whole = new LinkedHashMap<>(plain.wholeTexts());
        String reason = cutIfLong(origin, score, "reason", maskedReason, whole);
        // not run is no error: its reason says why
        String error = score.error() == null || score.error() instanceof SharedProblems.NotRun ? null
                : cutIfLong(origin, score, "error", redactor.redact(describe(score.error())), whole);
        Throwable thrown = score.error() == null || error == null ? null : redactor.redactError(score.error());
        if (whole.containsKey("error")) {
            String file = whole.get("error").file();
            thrown = ReportedError.rewrite(thrown, message -> LongTexts.isLong(message, origin.textLimit())
                    ? LongTexts.cut(message, origin.textLimit(), file) : message);
        }
        return new ScorerResult(record(origin, evalCase, score, reason, error, scoredOutput, taskOutput, usage),
                new CaseTranscript(plain.prompt(), plain.rawOutput(), plain.reference(), plain.detail(), whole,
                        plain.trajectory()),
                thrown);
    }

    private static boolean anyPending(List<ScoreOutcome> scores) {
        for (ScoreOutcome score : scores) {
            if (score.error() instanceof SharedProblems.Pending) {
                return true;
            }
        }
        return false;
    }

    /** Whether a result met a problem every case shares, and waits to be {@link #settled} in dataset order. */
    boolean unsettled() {
        return unsettled;
    }

    /**
     * This outcome, handed back in dataset order, with every result that met a shared problem settled: the first
     * result of the eval to report the problem is its error, every later one is not run, naming the case that
     * reported it.
     */
    CaseOutcome settled(SharedProblems problems) {
        if (!unsettled()) {
            return this;
        }
        List<ScoreOutcome> settled = new ArrayList<>(scores.size());
        for (ScoreOutcome score : scores) {
            if (!(score.error() instanceof SharedProblems.Pending pending)) {
                settled.add(score);
                continue;
            }
            String where = "case '" + caseId() + "'" + (repeat > 0 ? " (repeat " + repeat + ")" : "") + " of "
                    + origin.dataset() + " on " + origin.model() + ", scorer '" + score.name() + "'";
            Throwable problem = pending.problem().error();
            settled.add(score.withError(problems.firstReport(pending.problem().key(), where)
                    .<Throwable>map(first -> new SharedProblems.NotRun(problem.getMessage() + " (reported once, as"
                            + " the error of " + first + ")"))
                    .orElse(problem)));
        }
        return new CaseOutcome(origin, row, repeat, prompt, rawOutput, output, taskOutput, usage, settled, trajectory);
    }

    /** The text, or, over the run's limit, its start naming where the whole text goes (kept in {@code whole}). */
    private String cutIfLong(Origin origin, ScoreOutcome score, String what, String text,
            Map<String, CaseTranscript.WholeText> whole) {
        if (!LongTexts.isLong(text, origin.textLimit())) {
            return text;
        }
        String file = LongTexts.file(origin.eval(), origin.model(), origin.dataset(), caseId(), score.name(), repeat,
                what);
        whole.put(what, new CaseTranscript.WholeText(file, text));
        return LongTexts.cut(text, origin.textLimit(), file);
    }

    /** The result line of one score; {@code evalCase} is the row's case, or {@code null} for an unreadable row. */
    private ResultRecord record(Origin origin, EvalCase evalCase, ScoreOutcome score, String reason, String error,
            String output, TaskOutput taskOutput, CallUsage usage) {
        Map<String, Double> taskMetrics = taskOutput == null ? Map.of() : taskOutput.metrics();
        Map<String, Double> scoreMetrics = score.result() == null ? Map.of() : score.result().metrics();
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
        Boolean passed = score.error() == null && score.result() != null && score.result().isScored()
                ? score.result().passed() : null;
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
            metrics.forEach((name, value) -> masked.merge(redactor.redact(name), value, (a, b) -> b));
            metrics = masked;
        }
        return new ResultRecord(origin.maskedEval, origin.maskedModel, origin.maskedDataset, redactor.redact(caseId()),
                origin.maskedName(score.name()), origin.maskedName(score.version()),
                origin.maskedName(score.registryName()), repeat, score.score(), passed, score.status(), reason, metrics,
                usage.latencyMs(), usage.queueMs(), usage.tokensIn(), usage.tokensOut(), usage.tokensCached(),
                usage.costUsd(),
                usage.cached(), evalCase == null ? 1.0 : evalCase.weight(), tags, error, output);
    }

    private static String describe(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getSimpleName() + (message == null ? "" : ": " + message);
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
     * The result at this index: {@code results().get(index)}, the first (nearly every case's only one) one object
     * away instead of two, as {@link EvaluatedCase#repeat} for the same reason.
     */
    public ScorerResult result(int index) {
        return index == 0 && firstResult != null ? firstResult : results.get(index);
    }

    DatasetRow row() {
        return row;
    }

    /** The output the scorers graded, or {@code null} when the task failed. */
    String scoredOutput() {
        return output;
    }

    EvalCase evalCase() {
        return row.evalCase().orElse(null);
    }

    List<ScoreOutcome> scores() {
        return scores;
    }
}
