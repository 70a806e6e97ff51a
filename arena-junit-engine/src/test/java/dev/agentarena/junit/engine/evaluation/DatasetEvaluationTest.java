package dev.agentarena.junit.engine.evaluation;

import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.runtime;
import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.services;
import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.statuses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.evaluation.scheduling.CaseScheduler;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.internal.EvalCaseBuilder;
import dev.agentarena.junit.model.Model;

/**
 * One dataset on one model through {@link EvalRuntime#evaluate}: the selection is asked before any model call, and a
 * row it rejects is never evaluated; cases come back in dataset order with every repeat; closing stops the reading.
 */
class DatasetEvaluationTest {

    @TempDir
    Path directory;

    private RunServices run;

    @AfterEach
    void stop() {
        if (run != null) {
            run.close();
        }
    }

    @Test
    void rowsTheSelectionRejectsAreNeverEvaluated() {
        run = services(directory);
        EvalRuntime eval = runtime(run, Tickets.class);
        Tickets tickets = (Tickets) eval.instance();
        Set<String> wanted = Set.of("t2", "t4", "t5");

        List<String> evaluated = caseIds(eval.evaluate(spec(eval, "tickets"), "sim_small", row -> {
            tickets.events.add("select " + row.caseId());
            return wanted.contains(row.caseId());
        }));

        assertThat(evaluated).containsExactly("t2", "t4", "t5");
        assertThat(tickets.tasks()).containsExactlyInAnyOrder("t2", "t4", "t5");
        assertThat(tickets.events).filteredOn(event -> event.startsWith("select"))
                .containsExactly("select t1", "select t2", "select t3", "select t4", "select t5", "select t6");
        for (String caseId : wanted) {
            assertThat(tickets.events.indexOf("select " + caseId)).as("%s selected before its call", caseId)
                    .isLessThan(tickets.events.indexOf("task " + caseId));
        }
    }

    @Test
    void aSelectionOfNothingCallsNoModel() {
        run = services(directory);
        EvalRuntime eval = runtime(run, Tickets.class);

        assertThat(caseIds(eval.evaluate(spec(eval, "tickets"), "sim_small", row -> false))).isEmpty();
        assertThat(((Tickets) eval.instance()).tasks()).isEmpty();
    }

    @Test
    void everyCaseComesBackInDatasetOrderWithItsRepeatsInOrder() {
        run = services(directory, Constants.REPEATS, "3", Constants.CONCURRENCY, "4");
        EvalRuntime eval = runtime(run, Tickets.class);
        List<List<CaseOutcome>> cases = new ArrayList<>();

        try (DatasetEvaluation evaluation = eval.evaluate(spec(eval, "tickets"), "sim_small", row -> true)) {
            evaluation.forEachRemaining(cases::add);
        }

        assertThat(eval.repeats()).isEqualTo(3);
        assertThat(cases).extracting(evaluated -> evaluated.get(0).caseId()).containsExactly("t1", "t2", "t3", "t4", "t5", "t6");
        for (List<CaseOutcome> evaluated : cases) {
            assertThat(evaluated).extracting(CaseOutcome::repeat).containsExactly(0, 1, 2);
            assertThat(evaluated).allSatisfy(outcome -> assertThat(statuses(outcome))
                    .containsEntry("exact_match", ResultStatus.PASSED));
        }
        assertThat(((Tickets) eval.instance()).tasks()).hasSize(18);
    }

    @Test
    void aBadRowComesBackInItsPlaceAsAnError() {
        run = services(directory);
        EvalRuntime eval = runtime(run, Tickets.class);
        List<List<CaseOutcome>> cases = new ArrayList<>();

        try (DatasetEvaluation evaluation = eval.evaluate(spec(eval, "withGap"), "sim_small", row -> true)) {
            evaluation.forEachRemaining(cases::add);
        }

        assertThat(cases).extracting(evaluated -> evaluated.get(0).caseId()).containsExactly("a", "[1]", "b");
        List<CaseOutcome> bad = cases.get(1);
        assertThat(bad.get(0).evalCase()).isNull();
        assertThat(statuses(bad.get(0))).containsEntry("exact_match", ResultStatus.ERROR);
        assertThat(bad.get(0).results().get(0).record().error()).contains("Tickets.withGap()",
                "returned null at index 1");
    }

    @Test
    void closingStopsTheEvaluationAndClosesTheDataset() {
        run = services(directory, Constants.CONCURRENCY, "1");
        EvalRuntime eval = runtime(run, Tickets.class);
        Tickets tickets = (Tickets) eval.instance();

        DatasetEvaluation evaluation = eval.evaluate(spec(eval, "many"), "sim_small", row -> true);
        List<CaseOutcome> first = evaluation.next();
        evaluation.close();

        assertThat(first.get(0).caseId()).isEqualTo("m1");
        assertThat(tickets.closed).isTrue();
        assertThat(evaluation.hasNext()).isFalse();
        // the window is READ_AHEAD cases per call slot: no more than one window and the row after it were read
        // (a snapshot: a case that was started before the close may still be running)
        List<String> events;
        synchronized (tickets.events) {
            events = new ArrayList<>(tickets.events);
        }
        assertThat(events).filteredOn(event -> event.startsWith("read"))
                .hasSizeLessThanOrEqualTo(CaseScheduler.SMALL_ROWS_READ_AHEAD + 1);
    }

    @Test
    void aWindowOfSmallRowsGrowsToItsMostAndOneOfLargeRowsKeepsItsSize() {
        run = services(directory, Constants.CONCURRENCY, "1");
        EvalRuntime eval = runtime(run, Tickets.class);
        Tickets tickets = (Tickets) eval.instance();

        try (DatasetEvaluation small = eval.evaluate(spec(eval, "many"), "sim_small", row -> true)) {
            // filled on creation, before any case is reported: as many rows as the grown window holds, and the one
            // the window's last look at the source read
            assertThat(reads(tickets, "read m")).isBetween(CaseScheduler.SMALL_ROWS_READ_AHEAD,
                    CaseScheduler.SMALL_ROWS_READ_AHEAD + 1);
        }
        try (DatasetEvaluation large = eval.evaluate(spec(eval, "large"), "sim_small", row -> true)) {
            // READ_AHEAD rows already weigh more than the budget: the window stays at READ_AHEAD
            assertThat(reads(tickets, "read L")).isBetween(CaseScheduler.READ_AHEAD,
                    CaseScheduler.READ_AHEAD + 1);
        }
    }

    @Test
    void aWindowOfSmallRowsGrowsByTheCoresNotByTheCallThreads() {
        int cores = Runtime.getRuntime().availableProcessors();
        // one call thread more than the cores; "many" must hold more rows than a window grown per call thread reads
        assumeTrue(CaseScheduler.SMALL_ROWS_READ_AHEAD * (cores + 1) < 10 * CaseScheduler.SMALL_ROWS_READ_AHEAD);
        run = services(directory, Constants.CONCURRENCY, String.valueOf(cores + 1));
        EvalRuntime eval = runtime(run, Tickets.class);
        Tickets tickets = (Tickets) eval.instance();

        try (DatasetEvaluation small = eval.evaluate(spec(eval, "many"), "sim_small", row -> true)) {
            assertThat(reads(tickets, "read m")).isBetween(CaseScheduler.SMALL_ROWS_READ_AHEAD * cores,
                    CaseScheduler.SMALL_ROWS_READ_AHEAD * cores + 1);
        }
    }

    @Test
    void casesStillQueuedWhenTheEvaluationIsClosedAreNeverCalled() throws Exception {
        run = services(directory, Constants.CONCURRENCY, "1");
        EvalRuntime eval = runtime(run, Tickets.class);
        Tickets tickets = (Tickets) eval.instance();
        tickets.holdM2.set(new CountDownLatch(1));

        DatasetEvaluation evaluation = eval.evaluate(spec(eval, "many"), "sim_small", row -> true);
        assertThat(evaluation.next().get(0).caseId()).isEqualTo("m1");
        // the one call thread is in m2's task; every later case waits in the pool's queue
        assertThat(tickets.m2Started.await(30, TimeUnit.SECONDS)).isTrue();
        evaluation.close();
        tickets.holdM2.get().countDown();
        // the pool runs its queue in order: once this runs, every case queued before it has had its turn
        run.evaluation().scheduler().callPool().submit(() -> null).get(30, TimeUnit.SECONDS);

        assertThat(tickets.tasks()).containsExactly("m1", "m2");
    }

    @Test
    void casesThatComputeOnlyRunOnTheComputePoolAsManyThreadsAsCoresAtMostTheConcurrency() {
        run = services(directory, Constants.CONCURRENCY, "3");
        EvalRuntime eval = runtime(run, Recorded.class);
        List<List<CaseOutcome>> cases = evaluated(eval.evaluate(spec(eval, "answers"), "recorded", row -> true));

        assertThat(cases).hasSize(Recorded.CASES);
        assertThat(cases).allSatisfy(evaluated -> assertThat(statuses(evaluated.get(0)))
                .containsEntry("exact_match", evaluated.get(0).caseId().endsWith("0") ? ResultStatus.FAILED
                        : ResultStatus.PASSED));
        assertThat(run.evaluation().scheduler().computeThreads())
                .isEqualTo(Math.min(3, Runtime.getRuntime().availableProcessors()));
        assertThat(largestPoolSize(run.evaluation().scheduler().computePool()))
                .isBetween(1, run.evaluation().scheduler().computeThreads());
        assertThat(largestPoolSize(run.evaluation().scheduler().callPool())).as("threads of the call pool").isZero();
    }

    @Test
    void aCaseWhoseScorerOrTaskMayWaitRunsOnTheCallPool() {
        run = services(directory, Constants.CONCURRENCY, "3");
        EvalRuntime recorded = runtime(run, Recorded.class);
        // one case in ten is graded by llm_judge, which waits on its judge model
        List<List<CaseOutcome>> mixed = evaluated(recorded.evaluate(spec(recorded, "judged"), "recorded", row -> true));
        int computeThreads = largestPoolSize(run.evaluation().scheduler().computePool());
        int callThreads = largestPoolSize(run.evaluation().scheduler().callPool());

        assertThat(mixed).hasSize(Recorded.CASES);
        assertThat(mixed).filteredOn(evaluated -> evaluated.get(0).caseId().endsWith("0")).allSatisfy(evaluated -> assertThat(
                statuses(evaluated.get(0))).containsKey("llm_judge"));
        assertThat(computeThreads).isPositive();
        assertThat(callThreads).isPositive();

        // a @Scorer method is user code the engine cannot see into: every case on the call pool
        EvalRuntime withMethod = runtime(run, RecordedWithScorerMethod.class);
        List<List<CaseOutcome>> scored = evaluated(withMethod.evaluate(withMethod.definition().datasets().get(0),
                "recorded", row -> true));
        assertThat(scored).hasSize(Recorded.CASES);
        assertThat(RecordedWithScorerMethod.THREADS).isNotEmpty().allSatisfy(thread -> assertThat(thread)
                .startsWith("arena-call-"));
    }

    private static int largestPoolSize(java.util.concurrent.ExecutorService pool) {
        return ((ThreadPoolExecutor) pool).getLargestPoolSize();
    }

    private static List<List<CaseOutcome>> evaluated(DatasetEvaluation evaluation) {
        List<List<CaseOutcome>> cases = new ArrayList<>();
        try (evaluation) {
            evaluation.forEachRemaining(cases::add);
        }
        return cases;
    }

    private static int reads(Tickets tickets, String prefix) {
        synchronized (tickets.events) {
            return (int) tickets.events.stream().filter(event -> event.startsWith(prefix)).count();
        }
    }

    @Test
    void aDatasetThatCannotBeOpenedFailsTheEvaluationNamingIt() {
        run = services(directory);
        EvalRuntime eval = runtime(run, Tickets.class);

        assertThatThrownBy(() -> eval.evaluate(new DatasetSpec("missing", "no-such-file.jsonl", null), "sim_small",
                row -> true)).hasMessageContaining("no-such-file.jsonl");
    }

    @Test
    void theScorerFilterSaysWhichScorersAreSelected() {
        run = services(directory);
        EvalRuntime eval = EvalRuntime.create(EvalDefinition.of(Tickets.class, run.configuration()), run.evaluation(),
                Predicate.isEqual("exact_match"));

        assertThat(eval.includesScorer("exact_match")).isTrue();
        assertThat(eval.includesScorer("tone")).isFalse();
    }

    private static DatasetSpec spec(EvalRuntime eval, String name) {
        return eval.definition().datasets().stream().filter(spec -> spec.name().equals(name)).findFirst()
                .orElseThrow();
    }

    private static List<String> caseIds(DatasetEvaluation evaluation) {
        List<String> ids = new ArrayList<>();
        try (evaluation) {
            evaluation.forEachRemaining(evaluated -> ids.add(evaluated.get(0).caseId()));
        }
        return ids;
    }

    /** Recorded outputs graded by a builtin: no task, no hook; every tenth output wrong. */
    @Eval(value = "recorded", scorers = "exact_match")
    static class Recorded {

        static final int CASES = 40;

        @EvalDataset
        static Stream<EvalCase> answers() {
            return java.util.stream.IntStream.range(0, CASES).mapToObj(i -> EvalCase.recorded("r" + i, "q" + i, "a" + i,
                    i % 10 == 0 ? "wrong" : "a" + i));
        }

        /** The same, but every tenth case graded by {@code llm_judge} instead. */
        @EvalDataset
        static Stream<EvalCase> judged() {
            return answers().map(c -> c.id().endsWith("0") ? EvalCaseBuilder.from(c).evalType("llm_judge").build() : c);
        }
    }

    /** Recorded outputs graded by a {@code @Scorer} method as well. */
    @Eval(value = "recorded-scorer-method", scorers = "exact_match")
    static class RecordedWithScorerMethod {

        @EvalDataset
        static Stream<EvalCase> answers() {
            return Recorded.answers();
        }

        /** The threads the scorer ran on. */
        static final Set<String> THREADS = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @dev.agentarena.junit.Scorer
        static double length(String output) {
            THREADS.add(Thread.currentThread().getName());
            return output.length() > 3 ? 1 : 0;
        }
    }

    /** Tickets read lazily; records when each row is read, selected and sent to the task. */
    @Eval(value = "tickets", scorers = "exact_match")
    static class Tickets {

        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final AtomicBoolean closed = new AtomicBoolean();

        @EvalDataset
        Stream<EvalCase> tickets() {
            return Stream.of("t1", "t2", "t3", "t4", "t5", "t6").map(id -> {
                events.add("read " + id);
                return EvalCase.of(id, "billing", "billing");
            }).onClose(() -> closed.set(true));
        }

        /** Far more rows than one read-ahead window at concurrency 1, even grown. */
        @EvalDataset
        Stream<EvalCase> many() {
            return java.util.stream.IntStream.rangeClosed(1, 10 * CaseScheduler.SMALL_ROWS_READ_AHEAD).mapToObj(i -> {
                events.add("read m" + i);
                return EvalCase.of("m" + i, "billing", "billing");
            }).onClose(() -> closed.set(true));
        }

        /** Rows so large that one window of READ_AHEAD of them weighs more than the budget for growing it. */
        @EvalDataset
        Stream<EvalCase> large() {
            String input = "x".repeat((int) (CaseScheduler.SMALL_ROWS_BYTES / CaseScheduler.READ_AHEAD));
            return java.util.stream.IntStream.rangeClosed(1, 10 * CaseScheduler.READ_AHEAD).mapToObj(i -> {
                events.add("read L" + i);
                return EvalCase.of("L" + i, input, "billing");
            }).onClose(() -> closed.set(true));
        }

        @EvalDataset
        List<EvalCase> withGap() {
            return Arrays.asList(EvalCase.of("a", "billing", "billing"), null,
                    EvalCase.of("b", "billing", "billing"));
        }

        /** When set, m2's task waits for it. */
        final AtomicReference<CountDownLatch> holdM2 = new AtomicReference<>();
        /** Counted down when m2's task starts. */
        final CountDownLatch m2Started = new CountDownLatch(1);

        @Task
        String answer(EvalCase evalCase, Model model) throws InterruptedException {
            events.add("task " + evalCase.id());
            CountDownLatch hold = holdM2.get();
            if (hold != null && evalCase.id().equals("m2")) {
                m2Started.countDown();
                hold.await(30, TimeUnit.SECONDS);
            }
            return (String) evalCase.input();
        }

        List<String> tasks() {
            List<String> tasks = new ArrayList<>();
            synchronized (events) {
                events.stream().filter(event -> event.startsWith("task ")).map(event -> event.substring(5))
                        .forEach(tasks::add);
            }
            return tasks;
        }
    }
}
