package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;

/**
 * The cases of a dataset run concurrently on one instance of the eval class. Its {@code @Scorer} methods are called
 * one at a time unless the class says otherwise, so the obvious code (a scorer keeping the output in a field) grades
 * every case right; and a task that interrupts its own thread does not fail its case's scorers.
 */
class ScorerConcurrencyEngineTest {

    @TempDir
    Path output;

    @Test
    void aScorerWithAnUnsynchronisedFieldGradesAll120CasesRightByDefault() {
        FieldScorerEval.reset();

        EngineRun run = new EngineRun(output).with(Constants.CONCURRENCY, "8").execute(FieldScorerEval.class);

        assertThat(run.lines()).hasSize(120).allSatisfy(line -> assertThat(line.get("status").asText())
                .as(line.get("case_id").asText() + ": " + line.get("reason").asText() + " "
                        + line.get("error").asText()).isEqualTo("passed"));
        assertThat(run.results().testEvents().succeeded().count()).isEqualTo(120);
        assertThat(FieldScorerEval.mostAtOnce.get()).as("scorer calls at once").isEqualTo(1);
    }

    @Test
    void concurrentScorersRunSideBySideWhenTheClassSaysSo() {
        ConcurrentScorersEval.reset();

        EngineRun run = new EngineRun(output).with(Constants.CONCURRENCY, "8").execute(ConcurrentScorersEval.class);

        assertThat(run.results().testEvents().succeeded().count()).isEqualTo(40);
        // the first call waits for a second to come in beside it: called one at a time, it would wait in vain
        assertThat(ConcurrentScorersEval.mostAtOnce.get()).as("scorer calls at once").isGreaterThan(1);
    }

    /**
     * The scorer keeps the case's output in a field between two steps, as one would in a single-threaded test, and
     * sleeps in between; every third task interrupts its own thread before it returns.
     */
    @Eval("field-scorer")
    @UseModels("sim_small")
    public static class FieldScorerEval {

        static final AtomicInteger inFlight = new AtomicInteger();
        static final AtomicInteger mostAtOnce = new AtomicInteger();

        private String current;

        static void reset() {
            inFlight.set(0);
            mostAtOnce.set(0);
        }

        @EvalDataset
        List<EvalCase> cases() {
            List<EvalCase> cases = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                cases.add(EvalCase.of("c" + i, "answer " + i, "answer " + i));
            }
            return cases;
        }

        @Task
        String answer(EvalCase evalCase) {
            if (Integer.parseInt(evalCase.id().substring(1)) % 3 == 0) {
                Thread.currentThread().interrupt();
            }
            return evalCase.input().toString();
        }

        @Scorer
        boolean same(EvalCase evalCase, String output) throws InterruptedException {
            mostAtOnce.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                current = output;
                Thread.sleep(2);
                return current.equals(evalCase.reference());
            }
            finally {
                inFlight.decrementAndGet();
            }
        }
    }

    /**
     * Scorers that wait on something slow and keep no state: they may run side by side. Each call waits (up to 30 s)
     * until two calls have come in, so two overlap however the machine schedules them, unless they are serialised.
     */
    @Eval(value = "concurrent-scorers", concurrentScorers = true)
    @UseModels("sim_small")
    public static class ConcurrentScorersEval {

        static final AtomicInteger inFlight = new AtomicInteger();
        static final AtomicInteger mostAtOnce = new AtomicInteger();
        static volatile CountDownLatch twoIn = new CountDownLatch(2);

        static void reset() {
            inFlight.set(0);
            mostAtOnce.set(0);
            twoIn = new CountDownLatch(2);
        }

        @EvalDataset
        List<EvalCase> cases() {
            List<EvalCase> cases = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                cases.add(EvalCase.of("c" + i, "x", "x"));
            }
            return cases;
        }

        @Task
        String answer(EvalCase evalCase) {
            return "x";
        }

        @Scorer
        boolean slow(String output) throws InterruptedException {
            mostAtOnce.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                twoIn.countDown();
                twoIn.await(30, TimeUnit.SECONDS);
                return true;
            }
            finally {
                inFlight.decrementAndGet();
            }
        }
    }
}
