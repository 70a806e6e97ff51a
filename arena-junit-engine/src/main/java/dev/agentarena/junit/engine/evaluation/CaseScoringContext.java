package dev.agentarena.junit.engine.evaluation;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.internal.EvalCaseBuilder;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.model.Turn;
import dev.agentarena.junit.engine.secrets.SecretMasking;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/** The {@link ScoringContext} of one scorer on one case. */
final class CaseScoringContext implements ScoringContext, SecretMasking {

    private final EvalCase testCase;
    private final String evalName;
    private final String modelKey;
    private final ScorerOptionValues options;
    private final TaskOutput output;
    private final Path projectRoot;
    private final Supplier<Judge> judge;
    private final Duration timeLimit;
    private final SecretRedactor secrets;
    private final Trajectory trajectory;
    private final List<Turn> turns;
    private final Turn turn;

    private CaseScoringContext(EvalCase testCase, String evalName, String modelKey, ScorerOptionValues options,
            TaskOutput output, Path projectRoot, Supplier<Judge> judge, Duration timeLimit, SecretRedactor secrets,
            Trajectory trajectory, List<Turn> turns, Turn turn) {
        // List.copyOf returns an unmodifiable list as it is: copying a context does not copy its turns
        this.turns = List.copyOf(turns);
        this.turn = turn;
        this.secrets = secrets;
        this.trajectory = trajectory;
        this.testCase = testCase;
        this.evalName = evalName;
        this.modelKey = modelKey;
        this.options = options;
        this.output = output;
        this.projectRoot = projectRoot;
        this.judge = judge;
        this.timeLimit = timeLimit;
    }

    /** The case's context with its trajectory and turns, as the hooks and scorers see it. */
    CaseScoringContext(EvalCase testCase, String evalName, String modelKey, ScorerOptionValues options,
            TaskOutput output, Path projectRoot, Supplier<Judge> judge, SecretRedactor secrets, Trajectory trajectory,
            List<Turn> turns) {
        this(testCase, evalName, modelKey, options, output, projectRoot, judge, null, secrets, trajectory, turns,
                null);
    }

    /** The context one scorer sees: its options, its time limit and its judge, in one copy (one per scorer call). */
    CaseScoringContext forScorer(ScorerOptionValues newOptions, Duration newTimeLimit, Supplier<Judge> newJudge) {
        return new CaseScoringContext(testCase, evalName, modelKey, newOptions, output, projectRoot, newJudge,
                newTimeLimit, secrets, trajectory, turns, turn);
    }

    CaseScoringContext withOutput(TaskOutput newOutput) {
        return new CaseScoringContext(testCase, evalName, modelKey, options, newOutput, projectRoot, judge, timeLimit,
                secrets, trajectory, turns, turn);
    }

    /**
     * The context of one turn graded on its own: the turn's user message as the case's input, its answer as the
     * output, its steps as the trajectory; every turn stays in {@link #turns()}.
     */
    CaseScoringContext forTurn(Turn graded) {
        TaskOutput turnOutput = TaskOutput.of(graded.answer()).withToolCalls(graded.trajectory().toolCalls());
        EvalCase turnCase = EvalCaseBuilder.from(testCase).input(graded.user()).build();
        return new CaseScoringContext(turnCase, evalName, modelKey, options, turnOutput,
                projectRoot, judge, timeLimit, secrets, graded.trajectory(), turns, graded);
    }

    @Override
    public List<Turn> turns() {
        return turns;
    }

    @Override
    public Optional<Turn> turn() {
        return Optional.ofNullable(turn);
    }

    @Override
    public Trajectory trajectory() {
        return trajectory;
    }

    @Override
    public Optional<Duration> timeLimit() {
        return Optional.ofNullable(timeLimit);
    }

    @Override
    public EvalCase testCase() {
        return testCase;
    }

    @Override
    public String evalName() {
        return evalName;
    }

    @Override
    public String modelKey() {
        return modelKey;
    }

    @Override
    public ScorerOptionValues options() {
        return options;
    }

    @Override
    public TaskOutput output() {
        return output;
    }

    @Override
    public Path projectRoot() {
        return projectRoot;
    }

    @Override
    public SecretRedactor secrets() {
        return secrets;
    }

    @Override
    public Judge judge() {
        return judge.get();
    }
}
