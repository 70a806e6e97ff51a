package dev.agentarena.junit.engine.scoring.builtin;

import java.nio.file.Path;
import java.util.Map;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScorerOptions;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.TaskOutput;

/** A scoring context with a given case, options and judge. */
record StubScoringContext(EvalCase testCase, Map<String, Object> optionValues, Judge judge) implements ScoringContext {

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
        return ScorerOptions.of("llm_judge", optionValues);
    }

    @Override
    public TaskOutput output() {
        return TaskOutput.of("");
    }

    @Override
    public Path projectRoot() {
        return Path.of(".");
    }
}
