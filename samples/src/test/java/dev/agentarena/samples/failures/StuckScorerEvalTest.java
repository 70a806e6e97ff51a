package dev.agentarena.samples.failures;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.Timeouts;
import dev.agentarena.junit.UseModels;

/**
 * What a hung scorer does to a build: nothing but its own case. One scorer sleeps forever on one case (interrupted at
 * its limit), and on another it waits in a way no interrupt ends (left running); the build still ends, and every
 * other case and scorer is reported. See docs/guides/failures.md.
 */
@Eval(value = "stuck-scorer", scorers = "contains")
@UseModels("sim_small")
@Timeouts(scorer = 2)
class StuckScorerEvalTest {

    @EvalDataset
    List<EvalCase> questions() {
        return List.of(
                EvalCase.of("paris", "What is the capital of France?", "Paris"),
                EvalCase.of("sleeps", "What is the capital of Japan?", "Tokyo"),
                EvalCase.of("never_returns", "What is the capital of Italy?", "Rome"),
                EvalCase.of("nairobi", "What is the capital of Kenya?", "Nairobi"));
    }

    @Scorer
    ScoreResult concise(String output, EvalCase evalCase) throws InterruptedException {
        if (evalCase.id().equals("sleeps")) {
            Thread.sleep(Long.MAX_VALUE);
        }
        if (evalCase.id().equals("never_returns")) {
            while (true) {
                // parks again whenever it is interrupted: only the end of the JVM stops it
                LockSupport.parkNanos(1_000_000_000L);
            }
        }
        int words = output.strip().split("\\s+").length;
        return ScoreResult.of(words <= 12 ? 1.0 : 0.0).withReason(words + " words");
    }
}
