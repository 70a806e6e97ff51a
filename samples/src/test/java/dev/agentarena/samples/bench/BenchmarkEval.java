package dev.agentarena.samples.bench;

import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.UseModels;

/** The benchmark's eval: 1,000 cases on one simulated model. Not named *Test, so Surefire leaves it alone. */
@Eval(value = "pipeline-benchmark", scorers = "contains")
@UseModels("sim_small")
public class BenchmarkEval {

    static final int CASES = 1_000;

    @EvalDataset
    Stream<EvalCase> cases() {
        return IntStream.range(0, CASES).mapToObj(i -> EvalCase.of(String.format("case_%04d", i),
                "Repeat the word number " + i, "word" + i));
    }
}
