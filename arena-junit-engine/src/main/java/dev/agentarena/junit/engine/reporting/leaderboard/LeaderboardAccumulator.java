package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * Collects results as they arrive and builds the leaderboard at any time.
 *
 * <p>Results are kept in a {@link ResultLog}, in memory while they are few and in a temporary file past a few
 * megabytes, so a run of a million cases does not keep its results on the heap. A build reads them back into
 * primitive columns per model (no object per case), aggregates and lets them go. Thread-safe: workers may
 * {@link #accept} concurrently. The result does not depend on arrival order. Close it to delete its file.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LeaderboardAccumulator implements AutoCloseable {

    private final LeaderboardSettings settings;
    private final ResultLog log;
    /** What each eval's rows are, for the evals whose rows are not models. */
    private final Map<String, Compared> compared = new HashMap<>();

    /** An empty accumulator. */
    public LeaderboardAccumulator(LeaderboardSettings settings) {
        this(settings, ResultLog.DEFAULT_MEMORY_LIMIT);
    }

    /** An accumulator that keeps its results in a temporary file past {@code memoryLimit} bytes (for tests). */
    LeaderboardAccumulator(LeaderboardSettings settings, int memoryLimit) {
        this.settings = settings;
        this.log = new ResultLog(memoryLimit);
    }

    /**
     * Adds one result. A second record for the same eval, model, case, scorer and repeat replaces the first.
     *
     * @throws IllegalArgumentException when the record has no eval, model or case id, or a negative repeat
     */
    public synchronized void accept(ResultRecord record) {
        if (record.eval() == null || record.model() == null || record.caseId() == null || record.repeat() < 0) {
            throw invalid(record);
        }
        log.append(record);
    }

    /** Why a record cannot be kept: a method of its own, so the message's building is not compiled into accept. */
    private static IllegalArgumentException invalid(ResultRecord record) {
        if (record.eval() == null || record.model() == null || record.caseId() == null) {
            return new IllegalArgumentException("a result needs an eval, a model and a case id: " + record);
        }
        return new IllegalArgumentException("negative repeat index " + record.repeat() + " for case "
                + record.caseId());
    }

    /** Says what an eval's rows are, when they are not models (its configurations). */
    public synchronized void compares(String eval, Compared rows) {
        compared.put(eval, rows);
    }

    /** How many results were accepted. */
    public synchronized long size() {
        return log.size();
    }

    /** Whether the results are kept in a temporary file (for tests). */
    synchronized boolean spilled() {
        return log.spilled();
    }

    /** The temporary file the results are kept in, or {@code null} (for tests). */
    synchronized java.nio.file.Path spillFile() {
        return log.file();
    }

    /** The leaderboard of everything accepted so far. */
    public synchronized Leaderboard build() {
        Cells cells = new Cells();
        log.replay(cells);
        List<EvalLeaderboard> boards = new ArrayList<>();
        for (Iterator<Map.Entry<String, Map<String, ModelCell>>> e = cells.evals.entrySet().iterator(); e.hasNext();) {
            Map.Entry<String, Map<String, ModelCell>> eval = e.next();
            List<String> warnings = new ArrayList<>();
            List<ModelEntry> drafts = new ArrayList<>();
            // each cell goes once aggregated: a build holds one model's columns, not every model's
            for (Iterator<Map.Entry<String, ModelCell>> m = eval.getValue().entrySet().iterator(); m.hasNext();) {
                Map.Entry<String, ModelCell> model = m.next();
                drafts.add(new ModelAggregator(eval.getKey(), model.getKey(), model.getValue(), settings, warnings)
                        .aggregate());
                m.remove();
            }
            boards.add(Ranking.rank(eval.getKey(), drafts, settings, warnings,
                    compared.getOrDefault(eval.getKey(), Compared.MODELS)));
            e.remove();
        }
        return new Leaderboard(settings, boards);
    }

    /**
     * The cells of a build, filled from the log: by eval and model name in the order the leaderboard lists them, and
     * by the records' key numbers, so a result finds its model's and scorer's cells in an array, and another scorer's
     * result of the previous case reuses its case number.
     */
    private static final class Cells implements Consumer<ResultLog.Entry> {

        final Map<String, Map<String, ModelCell>> evals = new TreeMap<>();
        /** Per key number, its model's cell and its scorer's (none for a result without a scorer). */
        private final List<Target> byKey = new ArrayList<>();
        private ModelCell lastCell;
        private String lastCase;
        private int lastNumber;

        @Override
        public void accept(ResultLog.Entry record) {
            Target target = record.key < byKey.size() ? byKey.get(record.key) : null;
            if (target == null) {
                target = target(record);
            }
            ModelCell cell = target.cell;
            int i = cell == lastCell && record.caseId == lastCase ? lastNumber : cell.cases.add(record.caseId);
            cell.calls.add(i, record);
            if (target.scorer != null) {
                target.scorer.runs.add(i, record);
            }
            lastCell = cell;
            lastCase = record.caseId;
            lastNumber = i;
        }

        private Target target(ResultLog.Entry record) {
            ModelCell cell = evals.computeIfAbsent(record.eval, e -> new TreeMap<>())
                    .computeIfAbsent(record.model, m -> new ModelCell());
            ScorerCell scorer = null;
            if (record.scorer != null) {
                scorer = cell.scorer(record.scorer);
                scorer.named(record.version, record.registry);
            }
            Target target = new Target(cell, scorer);
            while (byKey.size() <= record.key) {
                byKey.add(null);
            }
            byKey.set(record.key, target);
            return target;
        }
    }

    private record Target(ModelCell cell, ScorerCell scorer) {
    }

    /** Deletes the temporary file, if any, and forgets every result. */
    @Override
    public synchronized void close() {
        log.close();
    }
}
