package dev.agentarena.junit.engine.execution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptions;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.scoring.NamedScore;
import dev.agentarena.junit.engine.scoring.ScorerDefinition;
import dev.agentarena.junit.engine.scoring.ScorerVersions;

/**
 * Evaluates one case on one model: pre-request hooks, the task or model call, post-process hooks, then every scorer.
 *
 * <p>Never throws: a bad row, a failing call or a failing scorer becomes an error on the outcome, so one broken case
 * never hides the others. A failing task skips the case's scorers, which are then reported as errors, never as low
 * scores.
 */
final class CaseEvaluator {

    private final RunServices run;
    private final EvalRuntime eval;
    private final String modelKey;

    CaseEvaluator(RunServices run, EvalRuntime eval, String modelKey) {
        this.run = run;
        this.eval = eval;
        this.modelKey = modelKey;
    }

    CaseOutcome evaluate(DatasetRow row, int repeat) {
        if (row.evalCase().isEmpty()) {
            Throwable error = new DatasetRowException(row.error().orElse("unreadable row"));
            return failed(row, repeat, eval.scorersForUnreadableRow(), error, null, CallUsage.NONE);
        }
        EvalCase evalCase = row.evalCase().get();
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

        String prompt = null;
        ModelHandle model = null;
        TaskOutput taskOutput;
        try {
            // the budget is checked before the first call as well, so a spent budget skips hooks and task alike
            run.budget().checkBeforeCall();
            model = new ModelHandle(modelKey, run.models().client(modelKey), evalCase, repeat, run.budget());
            prompt = eval.hooks().beforeRequest(Json.text(evalCase.input()), evalCase);
            taskOutput = eval.task().run(evalCase, prompt, model);
        }
        catch (Throwable t) {
            rethrowIfFatal(t);
            return failed(row, repeat, scorers, t, prompt, model == null ? CallUsage.NONE : model.usage());
        }
        CallUsage usage = model.usage();
        taskOutput = taskOutput.withUsage(usage.tokensIn(), usage.tokensOut(), usage.costUsd());

        CaseScoringContext context = new CaseScoringContext(evalCase, eval.definition().name(), modelKey,
                ScorerOptions.empty(""), taskOutput, run.configuration().projectRoot(), () -> run.models().judge(evalCase, repeat));
        EvalHooks.PostProcessed post;
        try {
            post = eval.hooks().afterOutput(taskOutput.text(), evalCase, context);
        }
        catch (Throwable t) {
            rethrowIfFatal(t);
            return failed(row, repeat, scorers, t, prompt, usage);
        }
        String output = post.output();
        TaskOutput scoredOutput = taskOutput.withText(output);
        context = context.withOutput(scoredOutput);

        List<ScoreOutcome> outcomes = new ArrayList<>();
        Map<String, String> owners = new LinkedHashMap<>();
        for (ScorerDefinition scorer : scorers) {
            String registryName = ScorerVersions.registryName(eval.definition().name(), scorer.name());
            List<ScoreOutcome> produced = new ArrayList<>();
            try {
                for (NamedScore score : scorer.score(output, context.withOptions(run.optionsFor(scorer.name())))) {
                    produced.add(new ScoreOutcome(score.name(), scorer.version(),
                            ScorerVersions.registryName(eval.definition().name(), score.name()), score.result(), null));
                }
            }
            catch (Throwable t) {
                rethrowIfFatal(t);
                produced.add(new ScoreOutcome(scorer.name(), scorer.version(), registryName, null, t));
            }
            for (ScoreOutcome outcome : produced) {
                String owner = owners.putIfAbsent(outcome.name(), scorer.name());
                if (owner != null) {
                    IllegalStateException clash = new IllegalStateException("Score name '" + outcome.name()
                            + "' is emitted by both scorer '" + owner + "' and scorer '" + scorer.name()
                            + "'; every score name belongs to exactly one scorer");
                    replaceNamed(outcomes, outcome.name(), clash);
                    outcomes.add(outcome.withError(clash));
                }
                else {
                    outcomes.add(outcome);
                }
            }
        }
        if (post.override() != null) {
            ScoreResult override = post.override().withReason("overridden by @PostProcess " + post.overridingHook()
                    + "(): " + post.override().reason());
            outcomes.replaceAll(outcome -> outcome.error() == null ? outcome.withResult(override) : outcome);
        }
        return new CaseOutcome(row, modelKey, repeat, prompt, taskOutput.text(), output, scoredOutput, usage, outcomes,
                null);
    }

    private static void replaceNamed(List<ScoreOutcome> outcomes, String name, Throwable error) {
        outcomes.replaceAll(outcome -> outcome.name().equals(name) ? outcome.withError(error) : outcome);
    }

    private CaseOutcome failed(DatasetRow row, int repeat, List<ScorerDefinition> scorers, Throwable error,
            String prompt, CallUsage usage) {
        List<ScoreOutcome> outcomes = new ArrayList<>();
        for (ScorerDefinition scorer : scorers) {
            outcomes.add(new ScoreOutcome(scorer.name(), scorer.version(),
                    ScorerVersions.registryName(eval.definition().name(), scorer.name()), null, error));
        }
        if (outcomes.isEmpty()) {
            outcomes.add(new ScoreOutcome("task", "", ScorerVersions.registryName(eval.definition().name(), "task"),
                    null, error));
        }
        return new CaseOutcome(row, modelKey, repeat, prompt, null, null, null, usage, outcomes, error);
    }

    private static void rethrowIfFatal(Throwable t) {
        if (t instanceof VirtualMachineError) {
            throw (VirtualMachineError) t;
        }
    }
}
