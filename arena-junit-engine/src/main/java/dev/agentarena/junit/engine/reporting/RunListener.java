package dev.agentarena.junit.engine.reporting;

import java.nio.file.Path;
import java.util.List;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.baseline.BaselineComparison;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.results.ArenaComparison;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ScoreSummary;
import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * Receives what a run produces, so that no test node writes a report itself: the test tree hands every result and
 * summary to one run-scoped chain of listeners ({@link RunListeners}), and each output (the console, the results file,
 * the leaderboard files, Allure, ...) is one listener. A new output format is one new class, registered in
 * the run's wiring ({@code execution/RunServices}), which builds the chain.
 *
 * <p>Events arrive on the thread of the test they belong to (Allure relies on that), one at a time per test, except
 * {@link #resultComputed}, which comes earlier from the thread that computed the result. Every method has an empty
 * default. A listener must not throw for a reporting problem of its own: the chain logs and carries on, and the
 * test's outcome stays what the result says.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface RunListener {

    /**
     * A result was computed, ahead of its test: on the thread that computed it (a worker of the run's call pool),
     * concurrently with other events, and possibly for a result that is never reported (a scorer the launcher did not
     * select). A listener may prepare here what it will write once the result is reported, so that the reporting
     * thread, which every test waits for, has less to do; it must not write anything yet, and must be thread-safe.
     * What it throws is ignored: the report is prepared again when the result is reported.
     */
    default void resultComputed(ResultRecord record, CaseTranscript transcript) {
    }

    /**
     * One scorer test's result, just before its JUnit outcome is reported.
     *
     * @param record the result, as written to {@code results.jsonl}
     * @param transcript the exchange with the model and the scorer's detail, for reports that show a case in full
     */
    default void resultReported(ResultRecord record, CaseTranscript transcript) {
    }

    /**
     * A result whose case has no test of its own ({@code arena.nodes=summary} or {@code failures}): a summary test
     * stands for it. By default it is heard as {@link #resultReported}, so every output that keeps results (the
     * results file, the leaderboard) keeps it; outputs that present tests one by one (the console's score line,
     * Allure) stay quiet instead. It arrives on the case container's thread, with no test running.
     */
    default void resultWithoutTest(ResultRecord record, CaseTranscript transcript) {
        resultReported(record, transcript);
    }

    /**
     * A dataset's cases start running on a model: the progress of a long run is counted from here. It arrives on the
     * case container's thread, as do {@link #caseFinished} and {@link #casesFinished}.
     */
    default void casesStarted(RunningDataset dataset) {
    }

    /**
     * How many cases the dataset's run has, once known: counted on a thread of its own while the cases run, and only
     * for a dataset file (a dataset method is not called twice, so its total stays unknown).
     */
    default void casesCounted(RunningDataset dataset, long total) {
    }

    /**
     * One case of the dataset's run is done, every repeat and result of it reported (as a test or not).
     *
     * @param errors how many of its results ended in an error
     * @param costUsd what its model calls cost
     */
    default void caseFinished(RunningDataset dataset, int errors, double costUsd) {
    }

    /**
     * No case of the dataset's run was answered for a while and its model's calls wait on something that says
     * where it stands (a batch: {@code batch batch_abc: 400/1000 done, in_progress, 2m 05s elapsed}); told about
     * every second on the case container's thread while it waits.
     */
    default void casesWaiting(RunningDataset dataset, List<String> waitingOn) {
    }

    /** The dataset's run ended: every case is done, or the run stopped. */
    default void casesFinished(RunningDataset dataset) {
    }

    /** A summary test of one score on one model and dataset ({@code arena.nodes}): the aggregate it carries. */
    default void scoreSummaryReported(ScoreSummary summary) {
    }

    /** What an eval will cost, before its first model call (only when a budget is set). */
    default void costEstimated(String eval, String estimate) {
    }

    /** A summary test of an eval starts ({@code leaderboard}, {@code gate ...}, {@code baseline ...}). */
    default void summaryStarted(String eval, String summary) {
    }

    /** A summary test was not applied, and why (only part of the eval ran, or nothing was recorded). */
    default void summarySkipped(String eval, String summary, String reason) {
    }

    /**
     * An eval's {@code leaderboard} test: the eval's leaderboard of this run.
     *
     * @param files the directory its {@code leaderboard.json} and {@code leaderboard.html} were written to
     */
    default void evalLeaderboardReported(String eval, Leaderboard leaderboard, Path files) {
    }

    /** A gate was checked: for an eval's {@code gate} test, or for the whole run at its end. */
    default void gateChecked(GateResult result) {
    }

    /** An eval was written into the baseline file. */
    default void baselineWritten(String eval, Path file, int entries) {
    }

    /** An eval was compared with the baseline file. */
    default void baselineCompared(String eval, BaselineComparison comparison) {
    }

    /**
     * One pairwise comparison of an {@code @Arena} eval, made by its {@code arena} test once every model ran, on that
     * test's thread, in dataset order.
     */
    default void arenaCompared(ArenaComparison comparison) {
    }

    /**
     * The arena of an {@code @Arena} eval once its comparisons are made, on its {@code arena} test's thread: ratings
     * with intervals, the counts per pair, the judge's biases and cost.
     */
    default void arenaReported(String eval, dev.agentarena.junit.engine.reporting.arena.ArenaTable table) {
    }

    /** Something the user should know that belongs to no test (a setting that is ignored, a file rewritten). */
    default void warning(String message) {
    }

    /**
     * A shard's run ({@code arena.shard}) ended, with or without results: what the merge needs to check that the
     * shards belong together.
     *
     * @param directory the shard's output directory, where its {@code results.jsonl} is
     */
    default void shardFinished(ShardManifest manifest, Path directory) {
    }

    /** The run ended with at least one result: its leaderboard, where its files are, and what it spent. */
    default void runFinished(RunReport report) {
    }
}
