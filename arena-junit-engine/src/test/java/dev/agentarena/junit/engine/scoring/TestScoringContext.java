package dev.agentarena.junit.engine.scoring;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScorerOptions;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.TaskOutput;

/** A scoring context for tests: a case, options and a task output, no judge. */
public final class TestScoringContext implements ScoringContext {

    private final String scorer;
    private final Map<String, Object> options;
    private final EvalCase testCase;
    private final TaskOutput output;

    private TestScoringContext(String scorer, Map<String, Object> options, EvalCase testCase, TaskOutput output) {
        this.scorer = scorer;
        this.options = options;
        this.testCase = testCase;
        this.output = output;
    }

    /** A context for the named scorer with no options. */
    public static TestScoringContext forScorer(String scorer) {
        return new TestScoringContext(scorer, Map.of(), EvalCase.of("case_1", "input", null), TaskOutput.of(""));
    }

    /** A copy with this option added. */
    public TestScoringContext with(String option, Object value) {
        Map<String, Object> all = new LinkedHashMap<>(options);
        all.put(option, value);
        return new TestScoringContext(scorer, all, testCase, output);
    }

    /** A copy for this case. */
    public TestScoringContext withCase(EvalCase evalCase) {
        return new TestScoringContext(scorer, options, evalCase, output);
    }

    /** A copy with this task output. */
    public TestScoringContext withOutput(TaskOutput taskOutput) {
        return new TestScoringContext(scorer, options, testCase, taskOutput);
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
    public ScorerOptions options() {
        return ScorerOptions.of(scorer, options);
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
        throw new UnsupportedOperationException("no judge in scorer tests");
    }
}
