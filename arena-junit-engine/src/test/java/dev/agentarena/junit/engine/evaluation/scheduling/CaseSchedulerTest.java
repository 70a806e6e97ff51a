package dev.agentarena.junit.engine.evaluation.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;

/**
 * The scheduler's own rules, without a run: a worker the watchdog gave up is replaced in the pool it was stuck in, and
 * what a row weighs for the read-ahead window. Where cases run in a run: {@code DatasetEvaluationTest}.
 */
class CaseSchedulerTest {

    @Test
    void aWorkerGivenUpIsReplacedInThePoolItWasStuckIn() {
        try (CaseScheduler scheduler = new CaseScheduler(3)) {
            int compute = ((ThreadPoolExecutor) scheduler.computePool()).getMaximumPoolSize();
            int call = ((ThreadPoolExecutor) scheduler.callPool()).getMaximumPoolSize();

            scheduler.computeLane().givenUp(false);

            assertThat(((ThreadPoolExecutor) scheduler.computePool()).getMaximumPoolSize()).isEqualTo(compute + 1);
            assertThat(((ThreadPoolExecutor) scheduler.computePool()).getCorePoolSize()).isEqualTo(compute + 1);
            assertThat(((ThreadPoolExecutor) scheduler.callPool()).getMaximumPoolSize()).isEqualTo(call);
        }
    }

    @Test
    void aRowWeighsItsTextsTwoBytesACharacterAndWhatItDoesNotSizeAsAFixedAmount() {
        DatasetRow texts = DatasetRow.of(EvalCase.of("c1", "x".repeat(1000), "y".repeat(10)).withTags("abc")
                .withRecordedOutput("z".repeat(100)), null);
        DatasetRow json = DatasetRow.of(EvalCase.of("c2", Map.of("question", "x".repeat(1000)), null), null);
        DatasetRow bad = DatasetRow.failed("c3", "unreadable", null);

        long base = RowWeights.weightOf(DatasetRow.of(EvalCase.of("c0", null, null), null));
        assertThat(RowWeights.weightOf(texts)).isEqualTo(base + 2 * (1000 + 10 + 100 + 3));
        assertThat(RowWeights.weightOf(json)).isEqualTo(base + RowWeights.UNSIZED_VALUE_BYTES);
        assertThat(RowWeights.weightOf(bad)).isGreaterThanOrEqualTo(RowWeights.UNSIZED_VALUE_BYTES);
    }
}
