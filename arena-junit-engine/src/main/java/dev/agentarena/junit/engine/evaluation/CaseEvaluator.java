package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetRowException;
import dev.agentarena.junit.engine.evaluation.agents.ModelHandle;
import dev.agentarena.junit.engine.evaluation.agents.UserModel;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.labels.EvalLabels;
import dev.agentarena.junit.engine.labels.HumanLabel;
import dev.agentarena.junit.engine.labels.OutputDigest;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.lifecycle.CaseCallbacks;
import dev.agentarena.junit.engine.models.AgentFailure;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.recording.RecordedReplay;
import dev.agentarena.junit.engine.traces.GenAiSpans;
import dev.agentarena.junit.engine.scoring.ClassScorerDefinition;
import dev.agentarena.junit.engine.scoring.NamedScore;
import dev.agentarena.junit.engine.scoring.ScorerDefinition;
import dev.agentarena.junit.engine.scoring.TurnScores;
import dev.agentarena.junit.engine.scoring.builtin.BuiltinScorers;
import dev.agentarena.junit.engine.scoring.builtin.ManualScorer;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * Evaluates one case on one model: pre-request hooks, the task or model call, post-process hooks, then every scorer,
 * all between the eval's {@link CaseCallbacks} (Spring's per-test callbacks, for a Spring eval class).
 *
 * <p>Never throws: a bad row, a failing or hanging call, a failing scorer, any {@code Throwable} of user code becomes
 * an error on the outcome, so one broken case never hides the others. A failing task skips the case's scorers, which
 * are then reported as errors, never as low scores.
 */
final class CaseEvaluator {

    /** The options of the case's context before each scorer's own: none. */
    private static final ScorerOptionValues NO_OPTIONS = ScorerOptionValues.empty("");

    private static final Pattern OPTION_ERROR = Pattern.compile("option '([^']+)' of scorer '");

    private final EvaluationServices run;
    private final EvalRuntime eval;
    private final String modelKey;
    /** The key under which a problem of the model is shared by every case ({@link SharedProblems#modelKey}). */
    private final String modelProblemKey;
    private final CaseOutcome.Origin origin;
    /**
     * The model behind {@link #modelKey}, once found: the same object for every case ({@link EvalRuntime#endpoint}
     * finds it under the eval's lock, which every thread of the call pool would otherwise take once a case). Not kept
     * while it cannot be created: each case then meets the problem as before.
     */
    private volatile ModelEndpoint endpoint;
    /** Whether the model's cases compute only, but for their scorers and simulated users: asked once. */
    private final boolean modelComputesOnly;
    /**
     * Whether the cases run on no model (a configuration of a retrieval-only eval): an empty text is then no answer,
     * and the builtins that grade text do not apply.
     */
    private final boolean answersNothing;
    /** How messages name each scorer's step ({@code scorer 'name'}), by scorer name: made once, not once a case. */
    private final Map<String, String> scorerSteps = new ConcurrentHashMap<>();

    CaseEvaluator(EvaluationServices run, EvalRuntime eval, String modelKey, String dataset) {
        this.run = run;
        this.eval = eval;
        this.modelKey = modelKey;
        this.modelProblemKey = SharedProblems.modelKey(modelKey);
        this.origin = new CaseOutcome.Origin(eval.definition().name(), modelKey, dataset, run.redactor(),
                run.textLimit());
        this.modelComputesOnly = eval.computesOnly(modelKey);
        this.answersNothing = eval.definition().modelOf(modelKey).isEmpty();
    }

    /** The key of the model it evaluates on. */
    String modelKey() {
        return modelKey;
    }

    /**
     * Whether the model's cases compute only, but for what a case's own scorers and simulated user wait on: the
     * dataset's cases then mostly run on the compute pool, and its window is sized for that pool's threads.
     */
    boolean modelComputesOnly() {
        return modelComputesOnly;
    }

    /**
     * Whether evaluating the row is computation alone, waiting on nothing: no task, hook or simulated user, a model
     * that answers from the case ({@link EvalRuntime#computesOnly(String)}), and scorers that compute on the output
     * alone ({@link ScorerDefinition#computesOnly()}). Such a case runs on the run's compute pool, as many threads as
     * cores; any other on the call pool, sized for calls that wait. A row that cannot be read is reported without a
     * call: it computes only.
     */
    boolean computesOnly(DatasetRow row) {
        if (!modelComputesOnly) {
            return false;
        }
        EvalCase evalCase = row.evalCase().orElse(null);
        if (evalCase == null) {
            return true;
        }
        if (evalCase.simulatedUser().isPresent()) {
            return false;
        }
        List<ScorerDefinition> scorers;
        try {
            scorers = eval.scorersFor(evalCase);
        }
        catch (IllegalArgumentException unknownEvalType) {
            // reported by the case without a call
            return true;
        }
        for (int i = 0; i < scorers.size(); i++) {
            if (!scorers.get(i).computesOnly()) {
                return false;
            }
        }
        return true;
    }

    /** The model behind the key, found once (see {@link #endpoint}). */
    private ModelEndpoint endpoint() {
        ModelEndpoint found = endpoint;
        if (found == null) {
            found = eval.endpoint(modelKey);
            endpoint = found;
        }
        return found;
    }

    /**
     * Evaluates one repeat of a case, every call into user code a step of {@code steps} (so it is held to its time
     * limit, and replayed when the case continues on another thread).
     *
     * @throws CaseRun.GivenUp when the watchdog gave up this thread
     */
    CaseOutcome evaluate(DatasetRow row, int repeat, CaseRun steps) {
        // asked once: the row makes an Optional per call
        EvalCase evalCase = row.evalCase().orElse(null);
        if (evalCase == null) {
            Throwable error = new DatasetRowException(row.error().orElse("unreadable row"));
            return failed(row, repeat, eval.scorersForUnreadableRow(), error, null, CallUsage.NONE);
        }
        List<ScorerDefinition> scorers;
        try {
            scorers = eval.scorersFor(evalCase);
        }
        catch (IllegalArgumentException e) {
            return failed(row, repeat, eval.scorersForUnreadableRow(), e, null, CallUsage.NONE);
        }
        if (scorers.isEmpty()) {
            return failed(row, repeat, scorers, new IllegalStateException("No scorer grades case '" + evalCase.id()
                    + "': give it an eval_type, set @Eval(scorers = ...) or " + Constants.SCORERS_DEFAULT
                    + ", or add a @Scorer method"), null, CallUsage.NONE);
        }
        Optional<String> badOptions = ScorerOptionLevels.notPerCase(evalCase);
        // asked of every case, and nearly every case has none: no iterator at all
        if (!evalCase.scorerOptions().isEmpty()) {
            for (String scorer : evalCase.scorerOptions().keySet()) {
                // a misspelt scorer in scorer_options would otherwise leave its options unread without a word
                badOptions = badOptions.or(() -> eval.unknownScorer(scorer)
                        .map(unknown -> "scorer_options: " + unknown));
            }
        }
        if (badOptions.isPresent()) {
            return failed(row, repeat, scorers, new IllegalArgumentException(
                    row.location().map(location -> location + ": ").orElse("") + "case '" + evalCase.id() + "': "
                            + badOptions.get()), null, CallUsage.NONE);
        }
        Optional<SharedProblems.Problem> modelProblem = eval.problems().known(modelProblemKey);
        if (modelProblem.isPresent()) {
            // the model cannot be created: an earlier case met it, and it reports it once
            return failed(row, repeat, scorers, new SharedProblems.Pending(modelProblem.get()), null, CallUsage.NONE);
        }
        // not steps: the callbacks pair up on whichever thread evaluates the repeat, also one that takes the case
        // over from a thread the watchdog gave up (which ends its own pair as it leaves)
        CaseCallbacks callbacks = eval.caseCallbacks();
        Attempt attempt = new Attempt();
        CaseOutcome outcome;
        try {
            callbacks.beforeCase();
            outcome = evaluate(row, repeat, evalCase, scorers, steps, attempt);
        }
        catch (CaseRun.GivenUp e) {
            afterCaseQuietly(callbacks, e);
            throw e;
        }
        catch (Throwable t) {
            attempt.error = t;
            outcome = failed(row, repeat, scorers, t, null, CallUsage.NONE);
        }
        try {
            callbacks.afterCase(attempt.error);
            return outcome;
        }
        catch (Throwable t) {
            rethrowIfGivenUp(t);
            if (attempt.error != null) {
                attempt.error.addSuppressed(t);
                return outcome;
            }
            return failed(row, repeat, scorers, t, attempt.prompt, attempt.usage);
        }
    }

    private static void afterCaseQuietly(CaseCallbacks callbacks, Throwable error) {
        try {
            callbacks.afterCase(error);
        }
        catch (Throwable ignored) {
            // this thread no longer owns the case: nothing of it may be reported from here
        }
    }

    /** What the case got to before its callbacks end: its prompt, its calls, and what failed it. */
    private static final class Attempt {
        private String prompt;
        private CallUsage usage = CallUsage.NONE;
        private Throwable error;
    }

    /** The case between its callbacks: hooks, the task or model call, hooks again, then every scorer. */
    private CaseOutcome evaluate(DatasetRow row, int repeat, EvalCase evalCase, List<ScorerDefinition> scorers,
            CaseRun steps, Attempt attempt) {
        String prompt = null;
        ModelHandle model = null;
        TaskOutput taskOutput;
        // the model's own failure (the step limit, a tool call its tools refused, no usable answer): scored, not an error
        AgentFailure agentFailure = null;
        try {
            // the budget is checked before the first call as well, so a spent budget skips hooks and task alike
            model = steps.step(TimeLimits.Kind.ENGINE, "the model handle", () -> {
                run.budget().checkBeforeCall();
                return new ModelHandle(modelKey, endpoint(), evalCase, repeat, run.budget(),
                        steps.liveness(), scorer -> eval.options().forCase(scorer, evalCase, row), run.maxSteps(),
                        run.models().recordings(), eval.repeatedToolCallIds());
            });
            prompt = eval.hooks().beforeRequest(Json.text(evalCase.input()), evalCase, steps);
            attempt.prompt = prompt;
            String sent = prompt;
            ModelHandle handle = model;
            UserModel user = userModel(evalCase, repeat, steps);
            taskOutput = steps.step(TimeLimits.Kind.TASK, eval.task().describe(),
                    () -> eval.task().run(evalCase, sent, handle, user));
        }
        catch (Throwable t) {
            rethrowIfGivenUp(t);
            ModelHandle handle = model;
            // a replay miss of an MCP tool, which the agent may have read as the tool's error and failed on later:
            // the machine's fault, never the model's
            Optional<Throwable> miss = handle == null ? Optional.empty() : handle.tools().miss().map(m -> m);
            Optional<AgentFailure> failure = handle == null || miss.isPresent() ? Optional.empty()
                    : handle.stepLimit().or(() -> AgentFailure.in(t)).or(() -> Integrations.agentFailure(t));
            if (failure.isEmpty()) {
                Throwable error = miss.orElse(t);
                attempt.error = error;
                attempt.usage = usage(model);
                if (model == null && t instanceof ConfigurationException) {
                    // no client for the key, a connector's missing setting: every case of this model shares it
                    ConfigurationException named = new ConfigurationException(t.getMessage() + " (model key set by "
                            + eval.modelKeysSource() + ")", t);
                    return failed(row, repeat, scorers, new SharedProblems.Pending(eval.problems()
                            .met(modelProblemKey, named)), prompt, attempt.usage);
                }
                return failed(row, repeat, scorers, error, prompt, attempt.usage,
                        model == null ? Trajectory.EMPTY : model.trajectory());
            }
            agentFailure = failure.get();
            taskOutput = null;
        }
        // the recorded model replays what the recorded run did: its trajectory, passages and spans
        Trajectory trajectory = RecordedReplay.trajectory(modelKey, evalCase, model.trajectory());
        if (trajectory.isEmpty() && taskOutput != null && !taskOutput.spans().isEmpty()) {
            // the engine saw no call (the app called its model with a client of its own): the captured spans tell them
            trajectory = GenAiSpans.trajectory(taskOutput.spans());
        }
        if (model.tools().miss().isPresent()) {
            // the agent took an MCP tool's replay miss for the tool's error and went on: the case is still a miss
            attempt.error = model.tools().miss().get();
            attempt.usage = usage(model);
            return failed(row, repeat, scorers, attempt.error, prompt, attempt.usage, trajectory);
        }
        if (agentFailure == null && model.stepLimit().isPresent()) {
            // the task caught the step limit's exception and returned: the case still ran away
            agentFailure = model.stepLimit().get();
        }
        if (agentFailure != null) {
            // no answer of the agent's: whatever the task made of the failure is not one
            taskOutput = TaskOutput.of("");
        }
        taskOutput = withTrajectory(RecordedReplay.output(modelKey, evalCase, taskOutput), trajectory, agentFailure);
        // a task that interrupted its own thread (Thread.currentThread().interrupt()) and returned: the flag is the
        // task's, and must not fail its case's scorers (a sleep, a lock or a judge call of theirs would throw)
        Thread.interrupted();
        CallUsage calls = usage(model);
        Optional<IllegalStateException> noCall = eval.modelCalls().taskFinished(modelKey, evalCase, calls, taskOutput);
        if (noCall.isPresent()) {
            attempt.error = noCall.get();
            attempt.usage = calls;
            return failed(row, repeat, scorers, noCall.get(), prompt, calls);
        }
        // what the task reported of calls made without the handle (TaskOutput.withUsage) counts as the handle's does
        run.budget().charge(taskOutput.costUsd());
        if (addsUsage(taskOutput, calls)) {
            // calls that cost nothing and counted no token (a recorded or replayed answer) leave the output as it is
            taskOutput = taskOutput.plusUsage(calls.tokensIn(), calls.tokensOut(), calls.costUsd());
        }
        CallUsage usage = sameUsage(taskOutput, calls) ? calls : new CallUsage(calls.calls(), calls.latencyMs(),
                calls.queueMs(), taskOutput.tokensIn(), taskOutput.tokensOut(), calls.tokensCached(), taskOutput.costUsd(),
                calls.cached());
        attempt.usage = usage;

        CaseScoringContext context = new CaseScoringContext(evalCase, eval.definition().name(), modelKey,
                NO_OPTIONS, taskOutput, run.configuration().projectRoot(),
                () -> run.models().judge(evalCase, repeat), run.redactor(), trajectory, model.turns());
        EvalHooks.PostProcessed post;
        try {
            // a hook shapes an answer, and a failed agent gave none: its scorers grade the empty output as it is
            post = agentFailure != null ? new EvalHooks.PostProcessed(taskOutput.text(), null, null)
                    : eval.hooks().afterOutput(taskOutput.text(), evalCase, context, steps);
        }
        catch (Throwable t) {
            rethrowIfGivenUp(t);
            attempt.error = t;
            return failed(row, repeat, scorers, t, prompt, usage, trajectory);
        }
        String output = post.output();
        TaskOutput scoredOutput = taskOutput;
        if (output != taskOutput.text()) {
            // a @PostProcess hook changed it; without one (most evals) the output and the context stand as they are
            scoredOutput = taskOutput.withText(output);
            context = context.withOutput(scoredOutput);
        }

        CaseOutcome.Builder outcome = new CaseOutcome.Builder(origin, row, repeat, prompt, taskOutput.text(), output,
                scoredOutput, usage, trajectory);
        if (post.override() != null) {
            overridden(outcome, scorers, post);
        }
        else {
            boolean slot;
            try {
                slot = steps.scoring();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                attempt.error = e;
                return failed(row, repeat, scorers, e, prompt, usage, trajectory);
            }
            try {
                score(outcome, scorers, output, context, repeat, steps, row, agentFailure);
            }
            finally {
                steps.scored(slot);
            }
        }
        return outcome.build();
    }

    /** What the case's calls through its model handle cost; none before there is a handle. */
    private static CallUsage usage(ModelHandle model) {
        return model == null ? CallUsage.NONE : model.usage(CallUsage::new, CallUsage.NONE);
    }

    /** Whether the output's tokens and cost are the calls' own (to the bit): their usage then stands as it is. */
    private static boolean sameUsage(TaskOutput output, CallUsage calls) {
        return output.tokensIn() == calls.tokensIn() && output.tokensOut() == calls.tokensOut()
                && Double.doubleToRawLongBits(output.costUsd()) == Double.doubleToRawLongBits(calls.costUsd());
    }

    /**
     * Whether {@link TaskOutput#plusUsage} of the calls' usage changes the output: a token, a cost, or a zero cost
     * whose sum is not the output's own to the bit ({@code -0.0 + 0.0} is {@code 0.0}).
     */
    private static boolean addsUsage(TaskOutput output, CallUsage calls) {
        return calls.tokensIn() != 0 || calls.tokensOut() != 0 || calls.costUsd() != 0
                || Double.doubleToRawLongBits(output.costUsd() + calls.costUsd())
                        != Double.doubleToRawLongBits(output.costUsd());
    }

    /**
     * The task's output with what its trajectory tells: the tool calls the model asked for, when the task reported
     * none itself (an AI service returns only its answer), and for an agent, its steps, failed tools and whether it
     * ran into the step limit as metrics ({@code steps}, {@code tool_errors}, {@code step_limit} 0 or 1), which the
     * leaderboard averages like any metric.
     */
    private static TaskOutput withTrajectory(TaskOutput output, Trajectory trajectory, AgentFailure failure) {
        if (!TrajectoryTexts.isAgentic(trajectory)) {
            return output;
        }
        TaskOutput with = output.toolCalls().isEmpty() ? output.withToolCalls(trajectory.toolCalls()) : output;
        return with.withMetric("steps", trajectory.modelSteps().size())
                .withMetric("tool_errors", trajectory.toolErrors())
                .withMetric(STEP_LIMIT_METRIC, failure != null && failure.kind() == AgentFailure.Kind.STEP_LIMIT ? 1 : 0);
    }

    /** The metric of an agent's case that says whether it ran into {@code arena.agent.max-steps}. */
    static final String STEP_LIMIT_METRIC = "step_limit";

    /**
     * A score of a case the agent failed, its reason led by what the agent did wrong: its output is empty, and a
     * reader must see why before the scorer's own words.
     */
    private static ScoreResult afterFailure(ScoreResult result, AgentFailure failure) {
        return failure == null || result == null ? result : result.withReason(failure.getMessage()
                + " Scored on no answer and the trajectory so far: " + result.reason());
    }

    /**
     * Runs every scorer, each a step of its own, adding its scores to the outcome; one that throws, or runs past its
     * limit, becomes an error of its own scores while the others still run. A score name emitted by two scorers makes
     * both errors naming both: every score name belongs to exactly one scorer.
     *
     * @param agentFailure what the agent did wrong, which leads every reason; {@code null} when it did nothing wrong
     */
    private void score(CaseOutcome.Builder outcome, List<ScorerDefinition> scorers, String output,
            CaseScoringContext context, int repeat, CaseRun steps, DatasetRow row, AgentFailure agentFailure) {
        // which scorer emitted each score name: the first name is kept aside, and the map made only for a second one
        // (most cases have one score, and no clash to look for)
        Map<String, String> owners = null;
        boolean anyName = false;
        String firstName = null;
        String firstOwner = null;
        for (ScorerDefinition scorer : scorers) {
            // Named scores register under their scorer: the version and the artifact belong to the scorer.
            String registryName = registryName(scorer);
            ScorerOptionValues options = eval.options().forCase(scorer.name(), context.testCase(), row);
            // a scorer whose option is missing is still called for every case: whether it needs the option can depend
            // on the case (applies_when needs must_contain only where the case has no reference), and it fails fast;
            // what it throws is then reported once, in dataset order
            List<NamedScore> produced;
            Throwable failure = null;
            try {
                // a step's value is replayed when the case continues on another thread: the scores, not the outcome
                produced = steps.step(TimeLimits.Kind.SCORER, scorerStep(scorer), () -> {
                    JudgeUsage judgeUsage = new JudgeUsage(run.budget());
                    CaseScoringContext scorerContext = context.forScorer(options,
                            steps.limitOf(TimeLimits.Kind.SCORER),
                            () -> run.models().judge(context.testCase(), repeat, judgeUsage::record));
                    if (answersNothing && output.isEmpty() && gradesText(scorer)) {
                        return List.of(new NamedScore(scorer.name(), noAnswer(scorer)));
                    }
                    List<NamedScore> named = perTurn(scorer, options, scorerContext)
                            ? TurnScores.score(scorer, scorerContext.turns(), scorerContext::forTurn)
                            : scorer.score(output, scorerContext);
                    return withJudgeUsage(named, judgeUsage);
                });
            }
            catch (Throwable t) {
                rethrowIfGivenUp(t);
                // one error under the scorer's own name
                failure = failedScorer(scorer, options, t);
                produced = List.of();
            }
            // "always 0.5, unscored": the results show manual's 0.5, the status keeps it out of accuracy
            boolean manual = failure == null && isManual(scorer);
            if (manual) {
                produced = labelled(produced, row, output);
            }
            int count = failure == null ? produced.size() : 1;
            for (int i = 0; i < count; i++) {
                String name = failure == null ? produced.get(i).name() : scorer.name();
                String owner;
                if (!anyName) {
                    anyName = true;
                    firstName = name;
                    firstOwner = scorer.name();
                    owner = null;
                }
                else {
                    if (owners == null) {
                        owners = new LinkedHashMap<>();
                        owners.put(firstName, firstOwner);
                    }
                    owner = owners.putIfAbsent(name, scorer.name());
                }
                if (owner != null) {
                    IllegalStateException clash = clash(name, owner, scorer.name());
                    outcome.replaceWithError(name, clash);
                    outcome.add(name, scorer.version(), registryName, null, clash, false);
                }
                else if (failure != null) {
                    outcome.add(name, scorer.version(), registryName, null, failure, false);
                }
                else {
                    outcome.add(name, scorer.version(), registryName, afterFailure(produced.get(i).result(),
                            agentFailure), null, manual);
                }
            }
        }
    }

    /** The scores with what their scorer's judge calls cost as metrics; the same list when it asked no judge. */
    private static List<NamedScore> withJudgeUsage(List<NamedScore> named, JudgeUsage usage) {
        List<NamedScore> charged = named;
        for (int i = 0; i < named.size(); i++) {
            ScoreResult result = named.get(i).result();
            ScoreResult withUsage = usage.onto(result);
            if (withUsage != result) {
                if (charged == named) {
                    charged = new ArrayList<>(named);
                }
                charged.set(i, new NamedScore(named.get(i).name(), withUsage));
            }
        }
        return charged;
    }

    private String scorerStep(ScorerDefinition scorer) {
        return scorerSteps.computeIfAbsent(scorer.name(), name -> "scorer '" + name + "'");
    }

    /**
     * What a scorer that threw (or ran past its limit) gives: one error under its own name, shared by every case when
     * it is a problem of the scorer rather than of the case (reported once, in dataset order). Out of {@link #score},
     * which nearly every case goes through without it.
     */
    private Throwable failedScorer(ScorerDefinition scorer, ScorerOptionValues options, Throwable t) {
        Throwable error = asError(withOptionSource(t, options));
        Optional<String> shared = SharedProblems.scorerKey(scorer.name(), error);
        return shared.isEmpty() ? error : new SharedProblems.Pending(eval.problems().met(shared.get(), error));
    }

    /** A score name emitted twice: the error of every score of that name, naming both scorers (or the one). */
    private static IllegalStateException clash(String name, String owner, String scorer) {
        return new IllegalStateException(owner.equals(scorer)
                ? "Scorer '" + owner + "' emits score name '" + name + "' twice"
                : "Score name '" + name + "' is emitted by both scorer '" + owner + "' and scorer '"
                        + scorer + "'; every score name belongs to exactly one scorer");
    }

    /** Whether a scorer is a builtin that grades the answer's text ({@link BuiltinScorers#gradesText}). */
    private static boolean gradesText(ScorerDefinition scorer) {
        return scorer instanceof ClassScorerDefinition definition && BuiltinScorers.gradesText(definition.scorer());
    }

    /** A text scorer's result on an empty output of a configuration without a model: there is no answer. */
    private ScoreResult noAnswer(ScorerDefinition scorer) {
        return ScoreResult.notApplicable("not applicable: scorer '" + scorer.name() + "' grades the answer's text, "
                + "but configuration '" + modelKey + "' runs on no model, so its task retrieves and gives no answer; "
                + "grade a retriever with retrieval scorers");
    }

    /** Whether a scorer is the builtin {@code manual}, which collects outputs for a person to grade. */
    private static boolean isManual(ScorerDefinition scorer) {
        return scorer instanceof ClassScorerDefinition definition && definition.scorer() instanceof ManualScorer;
    }

    /**
     * A {@code manual} result once a person labelled its output (see {@code labels/}): the person's score and verdict,
     * with their note as the reason, marked as a person's; a label of another output (stale) leaves it ungraded and
     * says so. The output is looked up as {@code results.jsonl} holds it: masked, by its digest.
     */
    private List<NamedScore> labelled(List<NamedScore> produced, DatasetRow row, String output) {
        Optional<EvalLabels> labels = run.labels().of(eval.definition().name());
        if (labels.isEmpty() || output == null) {
            return produced;
        }
        SecretRedactor redactor = run.redactor();
        Optional<EvalLabels.Match> match = labels.get().find(redactor.redact(row.caseId()),
                redactor.redact(modelKey), OutputDigest.of(redactor.redact(output)));
        if (match.isEmpty()) {
            return produced;
        }
        HumanLabel label = match.get().label();
        List<NamedScore> scores = new ArrayList<>();
        for (NamedScore score : produced) {
            if (score.result() == null) {
                scores.add(score);
            }
            else if (match.get().stale()) {
                scores.add(new NamedScore(score.name(), score.result().withReason(score.result().reason()
                        + "; its label (" + label.location() + ") is stale: the output changed since it was labelled")));
            }
            else {
                scores.add(new NamedScore(score.name(), ScoreResult.of(label.scoreOrVerdict(), label.passed())
                        .withReason(HUMAN_LABEL + (label.note().isEmpty() ? "" : ": " + label.note()))
                        .withDetail("human_label", label.location())));
            }
        }
        return scores;
    }

    /** How a reason says that a person gave the grade. */
    static final String HUMAN_LABEL = "labelled by a person";

    /**
     * Whether a scorer grades this case turn by turn: a conversation case, and the scorer's option {@code per_turn}
     * when set (any scorer's), else its own say ({@code @Scorer(perTurn = true)}).
     */
    private static boolean perTurn(ScorerDefinition scorer, ScorerOptionValues options, CaseScoringContext context) {
        return !context.turns().isEmpty() && options.getBoolean(TurnScores.OPTION, scorer.perTurn());
    }

    /**
     * The model that plays the case's simulated user, or {@code null} for a case without one: the case's
     * {@code model}, else {@code arena.agent.user-model}; an {@code @EvalModel} of the eval class or the run's
     * connector, behind record/replay, as every model.
     */
    private UserModel userModel(EvalCase evalCase, int repeat, CaseRun steps) {
        if (evalCase.simulatedUser().isEmpty()) {
            return null;
        }
        String key = evalCase.simulatedUser().get().model().orElse(run.userModel());
        return new UserModel(key, () -> eval.endpoint(key), evalCase, repeat, run.budget(), steps.liveness(),
                run.maxTurns());
    }

    /**
     * A {@code @PostProcess} hook returned a verdict: it stands for every scorer of the case, which are not run (an
     * {@code llm_judge} would otherwise still call its judge). The reason says which hook decided.
     */
    private void overridden(CaseOutcome.Builder outcome, List<ScorerDefinition> scorers,
            EvalHooks.PostProcessed post) {
        ScoreResult override = post.override().withReason("overridden by @PostProcess " + post.overridingHook()
                + "()" + (post.override().reason().isBlank() ? "" : ": " + post.override().reason()));
        for (ScorerDefinition scorer : scorers) {
            outcome.add(scorer.name(), scorer.version(), registryName(scorer), override, null, false);
        }
    }

    private String registryName(ScorerDefinition scorer) {
        return eval.registryName(scorer.name());
    }

    private CaseOutcome failed(DatasetRow row, int repeat, List<ScorerDefinition> scorers, Throwable error,
            String prompt, CallUsage usage) {
        return failed(row, repeat, scorers, error, prompt, usage, Trajectory.EMPTY);
    }

    private CaseOutcome failed(DatasetRow row, int repeat, List<ScorerDefinition> scorers, Throwable error,
            String prompt, CallUsage usage, Trajectory trajectory) {
        CaseOutcome.Builder outcome = new CaseOutcome.Builder(origin, row, repeat, prompt, null, null, null, usage,
                trajectory);
        Throwable reported = asError(error);
        for (ScorerDefinition scorer : scorers) {
            outcome.add(scorer.name(), scorer.version(), registryName(scorer), null, reported, false);
        }
        if (outcome.isEmpty()) {
            outcome.add("task", "", eval.registryName("task"), null, reported, false);
        }
        return outcome.build();
    }

    /**
     * What a failing task, hook or scorer is reported as. An {@code AssertionError} or an abort escaping them would
     * make the scorer node a failure or a skip, i.e. a low score or "not applicable": it is wrapped so the node is an
     * error with the same message. (An {@code AssertionError} inside a scorer is a score of 0, handled before this.)
     */
    private static Throwable asError(Throwable t) {
        if (t instanceof AssertionError || t instanceof TestAbortedException) {
            return new IllegalStateException(String.valueOf(t.getMessage()), t);
        }
        return t;
    }

    /**
     * A scorer's error about one of its options ({@code option 'pick' of scorer 'numeric' must be first or last, ...})
     * also says where that option was set, as the typed getters of {@link ScorerOptionValues} do: the file and line,
     * the annotation, the case or the property the user has to change.
     */
    static Throwable withOptionSource(Throwable t, ScorerOptionValues options) {
        if (!(t instanceof IllegalArgumentException) || t.getMessage() == null) {
            return t;
        }
        Matcher option = OPTION_ERROR.matcher(t.getMessage());
        if (!option.lookingAt()) {
            return t;
        }
        Optional<String> source = options.sourceOf(option.group(1));
        if (source.isEmpty() || t.getMessage().contains(source.get())) {
            return t;
        }
        return new IllegalArgumentException(t.getMessage() + " (" + source.get() + ")", t);
    }

    /**
     * Every {@code Throwable} of user code is an error of its case, a {@code StackOverflowError} or an
     * {@code OutOfMemoryError} too (the stack has unwound and the memory is free again by the time it arrives here);
     * only the signal that this thread was given up goes on.
     */
    private static void rethrowIfGivenUp(Throwable t) {
        if (t instanceof CaseRun.GivenUp) {
            throw (CaseRun.GivenUp) t;
        }
    }
}
