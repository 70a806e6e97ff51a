package dev.agentarena.junit.engine.evaluation.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.models.ModelEndpoint;

/**
 * The scheduler's own rules, without a run: which lane a case takes, what a lane's scorers and stuck workers cost,
 * and what a row weighs for the read-ahead window. Cases are started as recorded starts, never run. Where cases run
 * in a run: {@code DatasetEvaluationTest}.
 */
class CaseSchedulerTest {

    private static final ModelEndpoint.Pacing PACING = new ModelEndpoint.Pacing() {
        @Override
        public int inFlightWanted() {
            return 0;
        }

        @Override
        public int mostInFlight() {
            return 4;
        }
    };

    @Test
    void aCaseThatComputesOnlyTakesTheComputeLaneAndAnyOtherTheCallLaneInDatasetOrder() {
        try (CaseScheduler scheduler = new CaseScheduler(3)) {
            List<String> started = run(scheduler, new CaseScheduler.Workload("recorded", true,
                    row -> row.caseId().startsWith("c"), Optional.empty(), Optional.empty(), 2), "c1", "w2", "c3");

            assertThat(started).containsExactly("c1 0+2 COMPUTE", "w2 0+2 CALL", "c3 0+2 COMPUTE");
        }
    }

    @Test
    void aModelThatDoesNotComputeOnlyNeverAsksWhetherItsCasesDo() {
        try (CaseScheduler scheduler = new CaseScheduler(3)) {
            Predicate<DatasetRow> never = row -> {
                throw new AssertionError("asked of " + row.caseId());
            };
            List<String> started = run(scheduler, new CaseScheduler.Workload("sim_small", false, never,
                    Optional.empty(), Optional.empty(), 1), "a", "b");

            assertThat(started).containsExactly("a 0+1 CALL", "b 0+1 CALL");
        }
    }

    @Test
    void aBatchingModelStartsEveryRepeatApartOnTheBatchedLaneEvenWhenItAlsoPacesItself() {
        try (CaseScheduler scheduler = new CaseScheduler(3)) {
            List<Lane> lanes = new ArrayList<>();
            List<String> started = run(scheduler, new CaseScheduler.Workload("openai:gpt", false, row -> false,
                    Optional.of(new ModelEndpoint.Batching(10, Duration.ofHours(1))), Optional.of(PACING), 2),
                    lanes, "a", "b");

            assertThat(started).containsExactly("a 0+1 BATCHED", "a 1+1 BATCHED", "b 0+1 BATCHED", "b 1+1 BATCHED");
            assertThat(lanes).allSatisfy(lane -> assertThat(lane.taskWait()).contains(Duration.ofHours(1)));
        }
    }

    @Test
    void aSelfPacedModelsCasesTakeItsPacedLaneAndTheirScorersAScoringSlot() throws Exception {
        try (CaseScheduler scheduler = new CaseScheduler(1)) {
            List<Lane> lanes = new ArrayList<>();
            List<String> started = run(scheduler, new CaseScheduler.Workload("openai:gpt", false, row -> false,
                    Optional.empty(), Optional.of(PACING), 1), lanes, "a");
            Lane paced = lanes.get(0);

            assertThat(started).containsExactly("a 0+1 PACED");
            assertThat(paced.taskWait()).isEmpty();
            assertThat(paced.scoring()).as("the one slot taken").isTrue();
            // a worker stuck in a scorer keeps its slot: another is released, so the next case can score
            paced.givenUp(true);
            // without the slot freed this would wait for ever: the wait only bounds that hang
            assertThat(CompletableFuture.supplyAsync(() -> {
                try {
                    return paced.scoring();
                }
                catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }).get(30, TimeUnit.SECONDS)).as("the slot freed for the stuck worker's").isTrue();
            assertThat(scheduler.callLane().scoring()).as("the call pool is its own bound").isFalse();
        }
    }

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
        DatasetRow texts = DatasetRow.of(EvalCase.recorded("c1", "x".repeat(1000), "y".repeat(10), "z".repeat(100))
                .withTags("abc"), null);
        DatasetRow json = DatasetRow.of(EvalCase.of("c2", Map.of("question", "x".repeat(1000)), null), null);
        DatasetRow bad = DatasetRow.failed("c3", "unreadable", null);

        long base = RowWeights.weightOf(DatasetRow.of(EvalCase.of("c0", null, null), null));
        assertThat(RowWeights.weightOf(texts)).isEqualTo(base + 2 * (1000 + 10 + 100 + 3));
        assertThat(RowWeights.weightOf(json)).isEqualTo(base + RowWeights.UNSIZED_VALUE_BYTES);
        assertThat(RowWeights.weightOf(bad)).isGreaterThanOrEqualTo(RowWeights.UNSIZED_VALUE_BYTES);
    }

    /** Schedules the rows and drains the window: what each start was asked, in the order it was asked. */
    private static List<String> run(CaseScheduler scheduler, CaseScheduler.Workload work, String... ids) {
        return run(scheduler, work, new ArrayList<>(), ids);
    }

    private static List<String> run(CaseScheduler scheduler, CaseScheduler.Workload work, List<Lane> lanes,
            String... ids) {
        List<String> started = new ArrayList<>();
        CaseScheduler.Cases<String> cases = new CaseScheduler.Cases<>() {
            @Override
            public CompletableFuture<String> start(DatasetRow row, int firstRepeat, int repeats, Lane lane) {
                lanes.add(lane);
                started.add(row.caseId() + " " + firstRepeat + "+" + repeats + " " + lane.path());
                return CompletableFuture.completedFuture(row.caseId());
            }

            @Override
            public String joined(DatasetRow row, List<String> repeats) {
                return String.join(",", repeats);
            }
        };
        List<String> handedBack = new ArrayList<>();
        try (ReadAheadWindow<DatasetRow, String> window = scheduler.schedule(
                Arrays.stream(ids).map(id -> DatasetRow.of(EvalCase.of(id, "in", "ref"), null)).iterator(),
                work, cases)) {
            window.forEachRemaining(handedBack::add);
        }
        assertThat(handedBack).as("handed back in dataset order").hasSize(ids.length);
        assertThat(handedBack.stream().map(back -> back.split(",")[0])).containsExactly(ids);
        return started;
    }
}
