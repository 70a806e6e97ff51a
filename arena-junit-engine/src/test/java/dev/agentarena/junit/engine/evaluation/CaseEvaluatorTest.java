package dev.agentarena.junit.engine.evaluation;

import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.record;
import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.result;
import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.row;
import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.runtime;
import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.services;
import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.statuses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.PostProcess;
import dev.agentarena.junit.PreProcess;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetRowException;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.results.Money;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.internal.EvalCaseBuilder;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelCallException;

/**
 * One case on one model, whatever goes wrong: each failure becomes the right status on the right scores, never an
 * exception, and never a low score. The eval below behaves by case id; the default scorer is {@code exact_match},
 * and its {@code @Scorer} method {@code verdict} is the second score of every case.
 */
class CaseEvaluatorTest {

    @TempDir
    Path directory;

    private RunServices run;

    @BeforeEach
    void start() {
        run = services(directory);
    }

    @AfterEach
    void stop() {
        run.close();
    }

    @Test
    void aGoodCaseIsScoredByEveryScorerInOrder() {
        CaseOutcome outcome = evaluate(EvalCase.of("good", "billing", "billing"));

        assertThat(statuses(outcome)).containsExactly(entry("exact_match", ResultStatus.PASSED),
                entry("verdict", ResultStatus.PASSED));
        ResultRecord line = record(outcome, "verdict");
        assertThat(line.eval()).isEqualTo("behaviours");
        assertThat(line.model()).isEqualTo("sim_small");
        assertThat(line.dataset()).isEqualTo("cases");
        assertThat(line.caseId()).isEqualTo("good");
        assertThat(line.registryName()).isEqualTo("behaviours-verdict");
        assertThat(line.output()).isEqualTo("billing");
        assertThat(line.error()).isNull();
        assertThat(fixture().scored).containsExactly("good");
    }

    @Test
    void theModelCallsOfTheTaskAreAddedUpOnEveryScore() {
        CaseOutcome outcome = evaluate(EvalCase.of("calls_model", "billing", "billing"));

        for (ScorerResult result : outcome.results()) {
            assertThat(result.record().tokensIn()).as(result.record().scorer()).isPositive();
            assertThat(result.record().costUsd()).as(result.record().scorer()).isPositive();
            assertThat(result.transcript().prompt()).isEqualTo("billing");
        }
        assertThat(run.evaluation().budget().spentUsd()).isEqualTo(outcome.results().get(0).record().costUsd());
    }

    @Test
    void aBadRowIsAnErrorOnEveryScorerAndNeverReachesTheTask() {
        DatasetRow bad = DatasetRow.failed("line-3", "cases.jsonl line 3: not a JSON object", null);

        CaseOutcome outcome = evaluate(evaluator(), bad, 0);

        assertThat(statuses(outcome)).containsExactly(entry("exact_match", ResultStatus.ERROR),
                entry("verdict", ResultStatus.ERROR));
        ScorerResult result = result(outcome, "exact_match");
        assertThat(result.error()).isInstanceOf(DatasetRowException.class)
                .hasMessage("cases.jsonl line 3: not a JSON object");
        assertThat(result.record().caseId()).isEqualTo("line-3");
        assertThat(result.record().reason()).isEqualTo("cases.jsonl line 3: not a JSON object");
        assertThat(fixture().tasks).isEmpty();
    }

    @Test
    void anUnknownEvalTypeIsAnErrorNamingTheCaseAndTheScorer() {
        CaseOutcome outcome = evaluate(
                EvalCaseBuilder.of("typo", "billing", "billing").evalType("exact_mtach").build());

        assertThat(statuses(outcome).values()).containsOnly(ResultStatus.ERROR);
        assertThat(record(outcome, "exact_match").error()).contains("case 'typo'", "exact_mtach");
        assertThat(fixture().tasks).isEmpty();
    }

    /**
     * A failure before scoring: the task's, a hook's, or an {@code AssertionError} or abort escaping the task, which
     * would otherwise read as a low score or a skip. Every scorer of the case reports it as an error; none runs.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("failuresBeforeScoring")
    void aFailureBeforeScoringIsAnErrorOnEveryScorer(String what, String caseId, Class<?> error, String message,
            Class<? extends Throwable> cause, boolean taskCalled) {
        CaseOutcome outcome = evaluate(EvalCase.of(caseId, "billing", "billing"));

        assertThat(statuses(outcome)).containsExactly(entry("exact_match", ResultStatus.ERROR),
                entry("verdict", ResultStatus.ERROR));
        for (ScorerResult result : outcome.results()) {
            assertThat(result.error()).isInstanceOf(error).hasMessage(message);
            if (cause != null) {
                assertThat(result.error()).hasCauseInstanceOf(cause);
            }
            assertThat(result.record().score()).isNull();
            assertThat(result.record().passed()).isNull();
            assertThat(result.record().error()).isEqualTo(error.getSimpleName() + ": " + message);
        }
        assertThat(fixture().tasks).isEqualTo(taskCalled ? List.of(caseId) : List.of());
        assertThat(fixture().scored).isEmpty();
    }

    static Stream<Arguments> failuresBeforeScoring() {
        return Stream.of(
                arguments("a failing task", "task_fails", ModelCallException.class, "connection refused", null, true),
                arguments("an assertion escaping the task", "task_asserts", IllegalStateException.class,
                        "expected a label", AssertionError.class, true),
                arguments("an abort escaping the task", "task_aborts", IllegalStateException.class, "no sandbox",
                        TestAbortedException.class, true),
                arguments("a failing pre-request hook", "pre_request_fails", IllegalArgumentException.class,
                        "no prompt for pre_request_fails", null, false),
                arguments("a failing post-process hook", "post_process_fails", IllegalStateException.class,
                        "cannot clean up the output", null, true));
    }

    @Test
    void aFailingScorerIsAnErrorOfItsOwnWhileTheOthersStillScore() {
        CaseOutcome outcome = evaluate(EvalCase.of("scorer_fails", "billing", "billing"));

        assertThat(statuses(outcome)).containsExactly(entry("exact_match", ResultStatus.PASSED),
                entry("verdict", ResultStatus.ERROR));
        assertThat(result(outcome, "verdict").error()).isInstanceOf(IllegalStateException.class)
                .hasMessage("scorer exploded");
        assertThat(record(outcome, "verdict").output()).as("the output is kept with the error").isEqualTo("billing");
    }

    @Test
    void anAssertionErrorInsideAScorerIsAScoreOfZero() {
        CaseOutcome outcome = evaluate(EvalCase.of("scorer_asserts", "billing", "billing"));

        ResultRecord line = record(outcome, "verdict");
        assertThat(line.status()).isEqualTo(ResultStatus.FAILED);
        assertThat(line.score()).isEqualTo(0.0);
        assertThat(line.reason()).isEqualTo("too long");
        assertThat(result(outcome, "verdict").error()).isNull();
    }

    @Test
    void aScorerThatAbstainsIsNotApplicable() {
        CaseOutcome outcome = evaluate(EvalCase.of("abstains", "billing", "billing"));

        ResultRecord line = record(outcome, "verdict");
        assertThat(line.status()).isEqualTo(ResultStatus.NOT_APPLICABLE);
        assertThat(line.score()).isNull();
        assertThat(line.reason()).startsWith("not applicable");
    }

    @Test
    void aScoreNameEmittedByTwoScorersIsAnErrorOnBothNamingBoth() {
        CaseOutcome outcome = evaluate(EvalCase.of("clash", "billing", "billing"));

        List<ResultRecord> clashing = outcome.results().stream().map(ScorerResult::record)
                .filter(line -> line.scorer().equals("exact_match")).toList();
        assertThat(clashing).hasSize(2).allSatisfy(line -> {
            assertThat(line.status()).isEqualTo(ResultStatus.ERROR);
            assertThat(line.error()).contains("'exact_match' is emitted by both scorer 'exact_match' and scorer "
                    + "'verdict'");
        });
    }

    @Test
    void aPostProcessVerdictStandsForEveryScorerWhichAreNotRun() {
        CaseOutcome outcome = evaluate(EvalCase.of("overridden", "billing", "refund"));

        assertThat(statuses(outcome)).containsExactly(entry("exact_match", ResultStatus.PASSED),
                entry("verdict", ResultStatus.PASSED));
        assertThat(record(outcome, "exact_match").reason())
                .isEqualTo("overridden by @PostProcess guardrail(): escalated to a human");
        assertThat(fixture().scored).isEmpty();
    }

    @Test
    void noScorerForACaseIsAnErrorSayingHowToAddOne() {
        CaseOutcome outcome = evaluate(
                new CaseEvaluator(run.evaluation(), runtime(run, Unscored.class), "sim_small", "cases"),
                row(EvalCase.of("lonely", "billing", "billing")), 0);

        assertThat(statuses(outcome)).containsExactly(entry("task", ResultStatus.ERROR));
        assertThat(record(outcome, "task").error()).contains("No scorer grades case 'lonely'",
                Constants.SCORERS_DEFAULT, "@Scorer");
    }

    @Test
    void aSpentBudgetLeavesTheCaseNotRunWithoutCallingTheTask() {
        run.close();
        run = services(directory, Constants.BUDGET_USD, "0");

        CaseOutcome outcome = evaluate(EvalCase.of("good", "billing", "billing"));

        assertThat(statuses(outcome)).containsExactly(entry("exact_match", ResultStatus.NOT_RUN),
                entry("verdict", ResultStatus.NOT_RUN));
        assertThat(record(outcome, "verdict").reason()).isEqualTo("budget of $0.0000 reached after $0.0000");
        assertThat(result(outcome, "verdict").error()).isInstanceOf(BudgetExhaustedException.class);
        assertThat(fixture().tasks).isEmpty();
    }

    @Test
    void aBudgetSpentByTheTaskCallsBeforeLeavesTheNextCasesNotRun() {
        run.close();
        // every prompt token costs $1: the first call spends the $1 budget
        run = services(directory, Constants.BUDGET_USD, "1", "arena.models.sim_small.price.input-per-million",
                "1000000");
        CaseEvaluator evaluator = evaluator();

        CaseOutcome first = evaluate(evaluator, row(EvalCase.of("calls_model", "billing", "billing")), 0);
        CaseOutcome second = evaluate(evaluator, row(EvalCase.of("calls_model", "billing", "billing")), 1);

        assertThat(statuses(first).values()).containsOnly(ResultStatus.PASSED);
        assertThat(statuses(second).values()).containsOnly(ResultStatus.NOT_RUN);
        double spent = record(first, "exact_match").costUsd();
        assertThat(spent).isGreaterThanOrEqualTo(1.0);
        assertThat(record(second, "exact_match").reason())
                .isEqualTo("budget of $1.0000 reached after " + Money.usd(spent));
        assertThat(fixture().tasks).containsExactly("calls_model");
    }

    private CaseEvaluator evaluator;
    private EvalRuntime eval;

    private CaseEvaluator evaluator() {
        eval = runtime(run, Behaviours.class);
        evaluator = new CaseEvaluator(run.evaluation(), eval, "sim_small", "cases");
        return evaluator;
    }

    private CaseOutcome evaluate(EvalCase evalCase) {
        return evaluate(evaluator(), row(evalCase), 0);
    }

    /** Runs the case as the pipeline does (a {@link CaseRun} on the run's pool) and returns one of its repeats. */
    private CaseOutcome evaluate(CaseEvaluator caseEvaluator, DatasetRow row, int repeat) {
        TimeLimits limits = TimeLimits.of(run.configuration(), Behaviours.class);
        try {
            return new CaseRun(run.evaluation(), caseEvaluator, limits, row, repeat + 1).start()
                    .get(60, TimeUnit.SECONDS)
                    .get(repeat);
        }
        catch (Exception e) {
            throw new AssertionError("the case did not complete", e);
        }
    }

    private Behaviours fixture() {
        return (Behaviours) eval.instance();
    }

    /** Behaves by case id; remembers which cases reached the task and the {@code verdict} scorer. */
    @Eval(value = "behaviours", scorers = "exact_match")
    @UseModels("sim_small")
    static class Behaviours {

        final List<String> tasks = Collections.synchronizedList(new ArrayList<>());
        final List<String> scored = Collections.synchronizedList(new ArrayList<>());

        @EvalDataset
        List<EvalCase> cases() {
            // the tests hand rows to the evaluator themselves
            return List.of();
        }

        @PreProcess
        String prompt(String prompt, EvalCase evalCase) {
            if (evalCase.id().equals("pre_request_fails")) {
                throw new IllegalArgumentException("no prompt for " + evalCase.id());
            }
            return prompt;
        }

        @Task
        String answer(EvalCase evalCase, String prompt, Model model) {
            tasks.add(evalCase.id());
            switch (evalCase.id()) {
                case "task_fails":
                    throw new ModelCallException("connection refused");
                case "task_asserts":
                    throw new AssertionError("expected a label");
                case "task_aborts":
                    throw new TestAbortedException("no sandbox");
                case "calls_model":
                    model.complete(prompt);
                    return (String) evalCase.input();
                default:
                    return (String) evalCase.input();
            }
        }

        @PostProcess
        Object guardrail(String output, EvalCase evalCase) {
            if (evalCase.id().equals("post_process_fails")) {
                throw new IllegalStateException("cannot clean up the output");
            }
            if (evalCase.id().equals("overridden")) {
                return ScoreResult.pass("escalated to a human");
            }
            return output;
        }

        @Scorer
        Object verdict(String output, EvalCase evalCase) {
            scored.add(evalCase.id());
            switch (evalCase.id()) {
                case "scorer_fails":
                    throw new IllegalStateException("scorer exploded");
                case "scorer_asserts":
                    throw new AssertionError("too long");
                case "abstains":
                    return null;
                case "clash":
                    return Map.of("exact_match", 1.0);
                default:
                    return ScoreResult.pass("short enough");
            }
        }
    }

    /** No default scorer and no {@code @Scorer} method. */
    @UseModels("sim_small")
    static class Unscored {

        @EvalDataset
        static List<EvalCase> cases() {
            return List.of();
        }
    }
}
