package dev.agentarena.junit.engine.scoring;

import java.time.Duration;
import java.util.Optional;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.model.Trajectory;

/** A scoring context for tests: a case, options, a task output and, if given, a judge. */
public final class TestScoringContext implements ScoringContext {

    private final String scorer;
    private final Map<String, Object> options;
    private final EvalCase testCase;
    private final TaskOutput output;
    private final Judge judge;
    private Duration timeLimit;
    private Trajectory trajectory = Trajectory.EMPTY;

    private TestScoringContext(String scorer, Map<String, Object> options, EvalCase testCase, TaskOutput output,
            Judge judge) {
        this.scorer = scorer;
        this.options = options;
        this.testCase = testCase;
        this.output = output;
        this.judge = judge;
    }

    /** A context for the named scorer with no options. */
    public static TestScoringContext forScorer(String scorer) {
        return new TestScoringContext(scorer, Map.of(), EvalCase.of("case_1", "input", null), TaskOutput.of(""),
                null);
    }

    /** A copy with this option added. */
    public TestScoringContext with(String option, Object value) {
        Map<String, Object> all = new LinkedHashMap<>(options);
        all.put(option, value);
        return new TestScoringContext(scorer, all, testCase, output, judge);
    }

    /** A copy for this case. */
    public TestScoringContext withCase(EvalCase evalCase) {
        return new TestScoringContext(scorer, options, evalCase, output, judge);
    }

    /** A copy with this task output. */
    public TestScoringContext withOutput(TaskOutput taskOutput) {
        return new TestScoringContext(scorer, options, testCase, taskOutput, judge);
    }

    /** A copy with these options added. */
    public TestScoringContext with(Map<String, ?> more) {
        Map<String, Object> all = new LinkedHashMap<>(options);
        all.putAll(more);
        return new TestScoringContext(scorer, all, testCase, output, judge);
    }

    /** A copy whose {@link #judge()} is this one. */
    public TestScoringContext withJudge(Judge newJudge) {
        return new TestScoringContext(scorer, options, testCase, output, newJudge);
    }

    /** A copy whose {@link #timeLimit()} is this one, as the engine sets it. */
    public TestScoringContext withTimeLimit(Duration limit) {
        TestScoringContext copy = new TestScoringContext(scorer, options, testCase, output, judge);
        copy.timeLimit = limit;
        return copy;
    }

    /** A copy whose {@link #trajectory()} is this one, as the engine records it; call it last. */
    public TestScoringContext withTrajectory(Trajectory recorded) {
        TestScoringContext copy = new TestScoringContext(scorer, options, testCase, output, judge);
        copy.timeLimit = timeLimit;
        copy.trajectory = recorded;
        return copy;
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
        return "test-eval";
    }

    @Override
    public String modelKey() {
        return "sim_small";
    }

    @Override
    public ScorerOptionValues options() {
        return ScorerOptionValues.of(scorer, options);
    }

    @Override
    public TaskOutput output() {
        return output;
    }

    @Override
    public Path projectRoot() {
        return Path.of(".");
    }

    @Override
    public Judge judge() {
        if (judge == null) {
            throw new UnsupportedOperationException("no judge in this scorer test: use withJudge");
        }
        return judge;
    }
}
